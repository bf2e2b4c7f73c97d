/** The bodies of the leaderboard's answers, as the full routes and the fast answers write them. */
import type { Standing } from '../core/standing.ts';
import type { Entry } from '../service.ts';

export function userInfo(standing: Standing) {
  return { user_id: standing.userId, score: standing.score, rank: standing.rank };
}

export function entry(e: Entry) {
  return { user_id: e.userId, user_name: e.userName, rank: e.rank, score: e.score };
}

/**
 * `{"user_info":…}` as JSON.stringify writes it from `userInfo`, without building the objects:
 * the body of every rank read and score update at the edge. Scores and ranks are finite numbers,
 * which a template writes as JSON does; the id is quoted by JSON.stringify.
 */
export function userInfoJson(standing: Standing): string {
  return `{"user_info":{"user_id":${JSON.stringify(standing.userId)},"score":${standing.score},"rank":${standing.rank}}}`;
}
