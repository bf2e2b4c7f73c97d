import type { BlockIds } from './block-ids.ts';
import { permuted } from './typed-arrays.ts';

/**
 * The id table's slots, two to seven 32-bit words: slot 2i's three key words, one word holding
 * both slots' 16-bit block ids (2i in the low half), then slot 2i+1's three key words. So a slot
 * is 14 bytes, its key and its block id side by side (16 contiguous bytes: one cache line,
 * unless the 16 straddle two), where keys and `blockOf` in two arrays cost a rank read two
 * dependent misses (issue #15). While block ids are wide (65,536 blocks or more, or more
 * players waiting than that), their high 16 bits are in an array of their own, 2 bytes a slot.
 */
export class SlotWords implements BlockIds {
  words: Uint32Array;
  #capacity: number;
  /** While block ids are wide: their high 16 bits, by slot (the low 16 stay in the slot). */
  #high: Uint16Array | undefined;

  constructor(capacity: number) {
    this.words = new Uint32Array(wordsFor(capacity));
    this.#capacity = capacity;
  }

  get(slot: number): number {
    const low = halfOf(this.words, slot);
    const high = this.#high;
    return high === undefined ? low : low + high[slot]! * 0x10000;
  }

  set(slot: number, id: number): void {
    setHalf(this.words, slot, id & 0xffff);
    const high = this.#high;
    if (high !== undefined) high[slot] = id >>> 16;
  }

  /** Reads the high halves of `slots`' first `n` while wide (see UserIdTable.touch); returns what it read. */
  touch(slots: Int32Array, n: number): number {
    const high = this.#high;
    if (high === undefined) return 0;
    let read = 0;
    for (let i = 0; i < n; i++) read ^= high[slots[i]!]!;
    return read;
  }

  /** Nothing to do: the table has a block id for every slot. */
  ensure(): void {}

  get wide(): boolean {
    return this.#high !== undefined;
  }

  widen(): void {
    this.#high ??= new Uint16Array(this.#capacity);
  }

  narrow(): void {
    this.#high = undefined;
  }

  /** Nothing to do: the table's rehash moved the values with the keys (see `replace`). */
  renumber(): void {}

  get byteLength(): number {
    return this.#high?.byteLength ?? 0;
  }

  /** The words of a rehash into `capacity` slots (keys and halves moved by `map`) become the slots. */
  replace(words: Uint32Array, capacity: number, map: Int32Array): void {
    if (this.#high !== undefined) this.#high = permuted(this.#high, map, capacity);
    this.words = words;
    this.#capacity = capacity;
  }
}

/** The words `capacity` slots take (an odd count leaves one slot's key unused). */
export function wordsFor(capacity: number): number {
  return 7 * ((capacity + 1) >>> 1);
}

/** The first of `slot`'s three key words. */
export function keyOf(slot: number): number {
  return 7 * (slot >>> 1) + ((slot & 1) << 2);
}

/** The word holding `slot`'s 16-bit block id (with its pair's). */
export function blockWordOf(slot: number): number {
  return 7 * (slot >>> 1) + 3;
}

/** `slot`'s 16-bit block id in `words` (the narrow one). */
export function halfOf(words: Uint32Array, slot: number): number {
  return (words[blockWordOf(slot)]! >>> ((slot & 1) << 4)) & 0xffff;
}

export function setHalf(words: Uint32Array, slot: number, id: number): void {
  const at = blockWordOf(slot);
  const shift = (slot & 1) << 4;
  words[at] = (words[at]! & ~(0xffff << shift)) | (id << shift);
}
