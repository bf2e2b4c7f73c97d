import { grown, permuted, resized } from './typed-arrays.ts';

/** Where the column keeps a player's 32-bit word: the id table's value word of their slot. */
export interface SeqWords {
  readonly capacity: number;
  valueOf(handle: number): number;
  setValue(handle: number, value: number): void;
}

/**
 * Each player's seq (the win-log position of their last counted win), 4 bytes a player: stored as
 * the distance from the first seq seen, which fits 32 bits for any month (a month of the spec is
 * about 1.5 billion wins), in the id table's value word of the player's slot (`SeqWords`), which
 * the table moves with the player. A seq farther away than that widens the column to 8-byte
 * floats of its own, keyed by handle.
 */
export class SeqColumn {
  readonly #words: SeqWords;
  #base = 0;
  #based = false;
  #wide: Float64Array | undefined;

  constructor(words: SeqWords) {
    this.#words = words;
  }

  /** Bytes of its own (the narrow form's are counted by the id table). */
  get byteLength(): number {
    return this.#wide?.byteLength ?? 0;
  }

  get(handle: number): number {
    return this.#wide === undefined ? this.#base + (this.#words.valueOf(handle) | 0) : this.#wide[handle]!;
  }

  set(handle: number, seq: number): void {
    if (!this.#based) {
      this.#base = seq;
      this.#based = true;
    }
    const offset = seq - this.#base;
    if (this.#wide === undefined && (offset | 0) === offset) {
      this.#words.setValue(handle, offset);
      return;
    }
    this.#widen();
    // As long as the table already (see renumber): grown only as a guard.
    this.#wide = grown(this.#wide!, handle + 1);
    this.#wide[handle] = seq;
  }

  /** Room for handles 0 … `players` - 1 without copying the column. */
  reserve(players: number): void {
    if (this.#wide !== undefined && players > this.#wide.length) this.#wide = resized(this.#wide, players);
  }

  /** Cuts the column to handles 0 … `capacity` - 1 (every handle in use is below it). */
  trim(capacity: number): void {
    if (this.#wide !== undefined) this.#wide = resized(this.#wide, Math.max(capacity, 1));
  }

  /**
   * Moves handle h's seq to `map[h]` (-1: none there) in a column of `capacity` handles. The
   * narrow form moved with the table's slots already.
   */
  renumber(map: Int32Array, capacity: number): void {
    if (this.#wide !== undefined) this.#wide = permuted(this.#wide, map, capacity);
  }

  #widen(): void {
    if (this.#wide !== undefined) return;
    const capacity = this.#words.capacity;
    const wide = new Float64Array(capacity);
    for (let i = 0; i < capacity; i++) wide[i] = this.#base + (this.#words.valueOf(i) | 0);
    this.#wide = wide;
  }
}
