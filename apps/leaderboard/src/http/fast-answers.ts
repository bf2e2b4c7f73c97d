import type { FastifyInstance } from 'fastify';
import { TOP_LIST_SIZE, type Standing } from '../core/standing.ts';
import type { Entry, LeaderboardService, RecordedWin } from '../service.ts';
import { MAX_PLAIN_SCORE_BYTES, plainScore } from './plain-score.ts';
import { plainScoreOfBytes } from './plain-score-bytes.ts';
import { entry, userInfoJson } from './replies.ts';
import { userIdSchema } from './schemas.ts';

const SCORES_URL = '/v1/scores';
const TOP_URL = SCORES_URL;
const STANDING_PREFIX = '/v1/scores/';
const userIdPattern = new RegExp(userIdSchema.pattern);

/**
 * The requests every client makes all the time, answered before fastify when they can be (see
 * the kit's fast-routes.ts): the current top list while the cache holds it, one player's current
 * standing (at once from the embedded ranking; from a shared store, such as Redis, once it
 * answers), and a plain score update. The answers are those the full routes give (a test compares
 * them byte for byte); anything else — a query, a miss, a 404, a body that is not plainly valid —
 * takes the full route.
 */
export function addFastAnswers(app: FastifyInstance, service: LeaderboardService, maxPoints: number): void {
  let lastEntries: readonly Entry[] | undefined;
  let lastBody = '';
  app.addFastAnswer({
    route: TOP_URL,
    scope: 'scores:read',
    answer(url) {
      if (url !== TOP_URL) return undefined;
      const top = service.cachedTop(TOP_LIST_SIZE);
      if (top === undefined) return undefined;
      // The cached list is replaced, never changed in place: the same array, the same body.
      if (top.entries !== lastEntries) {
        lastBody = JSON.stringify({
          data: top.entries.map(entry),
          total: top.entries.length,
          period: top.period,
        });
        lastEntries = top.entries;
      }
      return lastBody;
    },
  });
  app.addFastAnswer({
    route: '/v1/scores/:user_id',
    scope: 'scores:read',
    answer(url) {
      if (!url.startsWith(STANDING_PREFIX)) return undefined;
      const userId = url.slice(STANDING_PREFIX.length);
      if (!userIdPattern.test(userId)) return undefined;
      const standing = service.currentStanding(userId);
      // Later: its failures (a 404, a closed ranking's 503) are answered at the edge as problems.
      return standing instanceof Promise ? standing.then(standingBody) : standingBody(standing);
    },
  });
  app.addFastWrite({
    route: SCORES_URL,
    scope: 'scores:write',
    maxBodyBytes: MAX_PLAIN_SCORE_BYTES,
    // The usual spelling of a plain body, read from its bytes; any other goes through JSON.parse.
    writeBytes(body) {
      const score = plainScoreOfBytes(body, maxPoints);
      if (score === undefined) return undefined;
      return service.recordWin(score).then(replyOf);
    },
    write(body) {
      const score = plainScore(body, maxPoints);
      if (score === undefined) return undefined;
      return service.recordWin(score).then(replyOf);
    },
  });
}

/** A module's function, not an arrow in `write`: no closure made per update. */
function replyOf(recorded: RecordedWin): { body: string; headers: typeof REPLAYED | undefined } {
  return { body: userInfoJson(recorded.standing), headers: recorded.replayed ? REPLAYED : undefined };
}

function standingBody(standing: Standing | undefined): string | undefined {
  return standing === undefined ? undefined : userInfoJson(standing);
}

const REPLAYED = { 'idempotent-replayed': 'true' } as const;
