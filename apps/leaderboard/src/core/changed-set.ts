import type { RankingEntry, TakenChanges } from './ranking-entry.ts';
import { GROWTH, grown, resized } from './typed-arrays.ts';

/**
 * The players changed since the last checkpoint save: a set of handles with O(1) add, one bit per
 * player, and the lists of the saves in flight, renumbered with the players.
 */
export class ChangedSet {
  #bits = new Uint32Array(128);
  #count = 0;
  readonly #taken = new Set<Int32Array>();

  get byteLength(): number {
    return this.#bits.byteLength;
  }

  /** `growth`: as in `grown`, more than GROWTH during a replay (which trims the set when done). */
  add(handle: number, growth = GROWTH): void {
    const word = handle >>> 5;
    if (word >= this.#bits.length) this.#bits = grown(this.#bits, word + 1, growth);
    const bit = 1 << (handle & 31);
    if ((this.#bits[word]! & bit) !== 0) return;
    this.#bits[word]! |= bit;
    this.#count++;
  }

  /** Reads the bits of `handles`' first `n` (see UserIdTable.touch); returns what it read. */
  touch(handles: Int32Array, n: number): number {
    const bits = this.#bits;
    let read = 0;
    for (let i = 0; i < n; i++) read ^= bits[handles[i]! >>> 5] ?? 0;
    return read;
  }

  /** Room for handles 0 … `players` - 1 without copying the bits. */
  reserve(players: number): void {
    const words = (players + 31) >>> 5;
    if (words > this.#bits.length) this.#bits = resized(this.#bits, words);
  }

  /** Cuts the bits to handles 0 … `capacity` - 1 (every handle in the set is below it). */
  trim(capacity: number): void {
    this.#bits = resized(this.#bits, Math.max((capacity + 31) >>> 5, 1));
  }

  /** Moves handle h to `map[h]` (never -1 for a handle in the set), in a set of `capacity` handles. */
  renumber(map: Int32Array, capacity: number): void {
    const from = this.#bits;
    const bits = new Uint32Array(Math.max((capacity + 31) >>> 5, 1));
    for (let word = 0; word < from.length; word++) {
      let w = from[word]!;
      while (w !== 0) {
        const low = w & -w;
        const to = map[word * 32 + 31 - Math.clz32(low)]!;
        bits[to >>> 5]! |= 1 << (to & 31);
        w ^= low;
      }
    }
    this.#bits = bits;
    for (const handles of this.#taken)
      for (let i = 0; i < handles.length; i++) handles[i] = map[handles[i]!]!;
  }

  /**
   * Takes the players changed since the last call; the set starts empty again. The save reads
   * each player's entry through `entryOf` and ends the list (which gives them back if it failed).
   */
  takeChanges(entryOf: (handle: number) => RankingEntry): TakenChanges {
    const handles = this.#take();
    this.#taken.add(handles);
    return {
      length: handles.length,
      // Read through the list at each call: a renumbering rewrites it in place.
      entryAt: (index) => entryOf(handles[index]!),
      end: (saved) => {
        if (!this.#taken.delete(handles) || saved) return;
        for (const handle of handles) this.add(handle);
      },
    };
  }

  #take(): Int32Array {
    const taken = new Int32Array(this.#count);
    let n = 0;
    const bits = this.#bits;
    for (let word = 0; n < this.#count && word < bits.length; word++) {
      let w = bits[word]!;
      if (w === 0) continue;
      bits[word] = 0;
      while (w !== 0) {
        const low = w & -w;
        taken[n++] = word * 32 + 31 - Math.clz32(low);
        w ^= low;
      }
    }
    this.#count = 0;
    return taken;
  }
}
