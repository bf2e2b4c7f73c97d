import { GROWTH, grown, permuted, resized } from './typed-arrays.ts';

/**
 * Each player's seq (the win-log position of their last counted win), 4 bytes a player: stored as
 * the distance from the first seq seen, which fits 32 bits for any month (a month of the spec is
 * about 1.5 billion wins). A seq farther away than that widens the column to 8-byte floats.
 */
export class SeqColumn {
  #base = 0;
  #based = false;
  #offsets: Int32Array | undefined = new Int32Array(1024);
  #wide: Float64Array | undefined;

  get byteLength(): number {
    return this.#offsets?.byteLength ?? this.#wide!.byteLength;
  }

  get(handle: number): number {
    return this.#offsets === undefined ? this.#wide![handle]! : this.#base + this.#offsets[handle]!;
  }

  /** `growth`: as in `grown`, more than GROWTH during a replay (which trims the column when done). */
  set(handle: number, seq: number, growth = GROWTH): void {
    if (!this.#based) {
      this.#base = seq;
      this.#based = true;
    }
    const offsets = this.#offsets;
    const offset = seq - this.#base;
    if (offsets !== undefined && (offset | 0) === offset) {
      if (handle < offsets.length) offsets[handle] = offset;
      else (this.#offsets = grown(offsets, handle + 1, growth))[handle] = offset;
      return;
    }
    this.#widen();
    this.#wide = grown(this.#wide!, handle + 1, growth);
    this.#wide[handle] = seq;
  }

  /** Reads the seqs of `handles`' first `n` (see UserIdTable.touch); returns what it read. */
  touch(handles: Int32Array, n: number): number {
    const offsets = this.#offsets;
    if (offsets === undefined) return 0;
    let read = 0;
    for (let i = 0; i < n; i++) read ^= offsets[handles[i]!] ?? 0;
    return read;
  }

  /** Room for handles 0 … `players` - 1 without copying the column. */
  reserve(players: number): void {
    if (this.#offsets !== undefined && players > this.#offsets.length)
      this.#offsets = resized(this.#offsets, players);
    if (this.#wide !== undefined && players > this.#wide.length) this.#wide = resized(this.#wide, players);
  }

  /** Cuts the column to handles 0 … `capacity` - 1 (every handle in use is below it). */
  trim(capacity: number): void {
    const length = Math.max(capacity, 1);
    if (this.#offsets !== undefined) this.#offsets = resized(this.#offsets, length);
    else this.#wide = resized(this.#wide!, length);
  }

  /** Moves handle h's seq to `map[h]` (-1: none there) in a column of `capacity` handles. */
  renumber(map: Int32Array, capacity: number): void {
    if (this.#offsets !== undefined) this.#offsets = permuted(this.#offsets, map, capacity);
    else this.#wide = permuted(this.#wide!, map, capacity);
  }

  #widen(): void {
    const offsets = this.#offsets;
    if (offsets === undefined) return;
    const wide = new Float64Array(offsets.length);
    for (let i = 0; i < offsets.length; i++) wide[i] = this.#base + offsets[i]!;
    this.#wide = wide;
    this.#offsets = undefined;
  }
}
