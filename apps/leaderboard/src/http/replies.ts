/** The bodies of the leaderboard's answers, as the full routes and the fast answers write them. */
import type { Standing } from '../core/standing.ts';
import type { Entry } from '../service.ts';

export function userInfo(standing: Standing) {
  return { user_id: standing.userId, score: standing.score, rank: standing.rank };
}

export function entry(e: Entry) {
  return { user_id: e.userId, user_name: e.userName, rank: e.rank, score: e.score };
}
