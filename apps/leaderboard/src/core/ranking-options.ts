import type { ArenaLimits } from './id-arena.ts';

/** A ranking's options (for tests and benchmarks) and the tuning constants of its placement. */
export interface RankingOptions {
  /** Scores below this (a power of two) are counted in a dense Fenwick tree; higher ones take a slower path. */
  readonly denseScores?: number;
  /** Players per block of the rank order. */
  readonly blockSize?: number;
  /** From this many players placed at once, they are merged in bulk (a test sets it low). */
  readonly bulkPlacement?: number;
  /**
   * A test hook: every this many new players, the id table is rehashed into one slot more or
   * fewer, which gives most players a new handle as a growth does. Unset outside tests.
   */
  readonly renumberEvery?: number;
  /** The limits of the id table's arena for ids not packed as hex (a test makes them small). */
  readonly idArena?: ArenaLimits;
}

/** 2^20: a month of 1-point wins never leaves the dense range; its tree grows with the top score. */
export const DENSE_SCORES = 1 << 20;

/**
 * From this many players placed at once, a merge (O(players)) beats placing them one by one: at
 * scale, a few thousand block moves cost about one pass over the order.
 */
export const BULK_PLACEMENT = 4096;

/**
 * Growth of the id table during a replay: each growth rewrites every slot at random, so growing by
 * 2 rewrites a slot about once over the replay where TABLE_GROWTH (1.1) rewrites it eight times.
 */
export const BULK_GROWTH = 2;

/** A merge is chosen when the players to place are at least 1/MERGE_SHARE of those placed. */
export const MERGE_SHARE = 64;
