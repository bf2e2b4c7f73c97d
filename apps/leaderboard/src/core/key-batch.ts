import type { Win } from './win.ts';

/** What `Ranking.applyBatch` reads of a win. */
export type BatchWin = Pick<Win, 'seq' | 'userId' | 'points'>;

/**
 * Wins of a batch parsed and looked up together: enough for the loads of one phase to overlap,
 * few enough that their lines are still cached when the wins are applied.
 */
export const BATCH_CHUNK = 256;

/**
 * The parsed ids of a batch of wins (see Ranking.applyBatch): each id's hash, whether it is packed
 * hex, its three key words, and, once the id table has looked, its home slot. A batch is applied
 * in phases so that the cache misses of its ids overlap: parse and hash every id, then read every
 * home slot in one tight loop of independent loads (the CPU issues them together; a win applied
 * alone waits for each in turn), then apply the wins, whose slots are now in the cache.
 */
export class KeyBatch {
  readonly hashes: Uint32Array;
  readonly hex: Uint8Array;
  /** Three words an id (zeros unless hex). */
  readonly words: Uint32Array;
  /** Each id's home slot in the table as it was when read (a growth since only costs a miss). */
  readonly homes: Int32Array;
  /** What the reads of the slots gave: kept, so that no compiler drops them as unused. */
  touched = 0;

  constructor(size: number) {
    this.hashes = new Uint32Array(size);
    this.hex = new Uint8Array(size);
    this.words = new Uint32Array(3 * size);
    this.homes = new Int32Array(size);
  }

  get size(): number {
    return this.hashes.length;
  }
}
