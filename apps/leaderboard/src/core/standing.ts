/** A player's place on one month's leaderboard. */
export interface Standing {
  readonly userId: string;
  readonly score: number;
  readonly rank: number;
}

/**
 * How players with equal scores are ranked.
 * - `shared`: standard competition ranking; scores 9, 7, 7, 5 rank 1, 2, 2, 4 (the spec's rule).
 * - `earliest`: the player who reached the score first ranks higher; every rank is distinct.
 */
export type TieBreak = 'shared' | 'earliest';

export const TIE_BREAKS: readonly TieBreak[] = ['shared', 'earliest'];

/** How many players the top list shows (the spec's "top 10"). */
export const TOP_LIST_SIZE = 10;
