/**
 * The plain case of a score update, for the fast write (see fast-answers.ts): a body the full
 * route's schema (scoreBodySchema) would accept as it is, with nothing to coerce, default or
 * strip. Anything else — a missing or extra field, a string where a number goes, a value out of
 * range — is left to the full route, which answers it with its problem.
 */
import { scoreBodySchema, userIdSchema } from './schemas.ts';

/** A plain body is well under this (the longest user id and match id, id-rules.ts, and points). */
export const MAX_PLAIN_SCORE_BYTES = 1024;

const userId = new RegExp(userIdSchema.pattern);
const matchId = new RegExp(scoreBodySchema(1).properties.match_id.pattern);

export interface PlainScore {
  readonly userId: string;
  readonly points: number;
  readonly matchId?: string;
}

export function plainScore(body: unknown, maxPoints: number): PlainScore | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  let fields = 0;
  for (const key in body) {
    if (key !== 'user_id' && key !== 'points' && key !== 'match_id') return undefined;
    fields++;
  }
  // JSON.parse makes own properties only, `__proto__` included (which the loop above refuses).
  const { user_id, points, match_id } = body as Record<string, unknown>;
  if (typeof user_id !== 'string' || !userId.test(user_id)) return undefined;
  if (typeof points !== 'number' || !Number.isInteger(points) || points < 1 || points > maxPoints)
    return undefined;
  if (match_id === undefined) return fields === 2 ? { userId: user_id, points } : undefined;
  if (typeof match_id !== 'string' || !matchId.test(match_id)) return undefined;
  return { userId: user_id, points, matchId: match_id };
}
