/**
 * Whether a score update may be recorded (LeaderboardService#recordWin): before the append, a
 * period being rebuilt or a full id arena refuses it; after it, a match id recorded before must
 * name the same win.
 */
import type { NewWin, Win } from './core/win.ts';
import { leaderboardErrors } from './errors.ts';
import type { RankingStore } from './ports.ts';

/** What a score update names: a retry must repeat it. */
export interface MatchInput {
  readonly userId: string;
  readonly points: number;
  readonly matchId?: string | undefined;
}

/** `reserved`: a new player near the id arena's end, whose room goes back if the win fails. */
export type WinAdmission = 'admitted' | 'reserved' | Error;

/**
 * A period being rebuilt refuses the win before the append (a refused update records nothing),
 * and so does a full id arena (its error).
 */
export function admissionOf(rankings: Pick<RankingStore, 'refusal' | 'admits'>, win: NewWin): WinAdmission {
  const refused = rankings.refusal?.(win.period);
  if (refused !== undefined) return refused;
  const admission = rankings.admits?.(win.period, win.userId);
  if (admission === 'refused')
    return leaderboardErrors.LB_PLAYER_LIMIT(`no room for another player id in ${win.period}`);
  return admission === 'reserved' ? 'reserved' : 'admitted';
}

/**
 * A match id names one win. Reused for another player or other points it is a client bug (or a
 * forged retry): refuse it, record nothing, and never show the original player's standing.
 */
export function assertSameMatch(recorded: Win, input: MatchInput): void {
  if (recorded.userId === input.userId && recorded.points === input.points) return;
  throw leaderboardErrors.LB_MATCH_ID_CONFLICT(
    `match_id ${JSON.stringify(input.matchId)} was already recorded for another win; a retry must repeat the same user_id and points`,
    { match_id: input.matchId },
  );
}
