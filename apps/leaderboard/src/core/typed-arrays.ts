/**
 * The two helpers every typed-array structure of the core shares: growing an array and hashing
 * an integer. One growth rule keeps the capacity figures (bytes per player) predictable.
 */

export type IntArray = Int32Array | Uint32Array | Uint16Array | Uint8Array;
export type NumberArray = IntArray | Float64Array;

/**
 * Growth factor of every growable array. At 25 M players the unused capacity is what decides
 * the bytes per player: 1.25 leaves at most a fifth unused, and the extra copies cost little.
 */
export const GROWTH = 1.25;

/**
 * A copy of `from` with room for at least `needed` elements (same type); `from` when it already has
 * room. `growth` above GROWTH is for a replay, which trims its columns when done.
 */
export function grown<T extends NumberArray>(from: T, needed: number, growth = GROWTH): T {
  if (needed <= from.length) return from;
  const length = Math.max(needed, Math.ceil(from.length * growth), 16);
  const to = new (from.constructor as new (length: number) => T)(length);
  to.set(from);
  return to;
}

/**
 * A copy of `from` of exactly `length` elements (its first `length` when shorter): for sizing an
 * array once when the count is known (`reserve`) and for trimming it to the count after a rebuild.
 */
export function resized<T extends NumberArray>(from: T, length: number): T {
  if (length === from.length) return from;
  const to = new (from.constructor as new (length: number) => T)(length);
  to.set(length < from.length ? from.subarray(0, length) : from);
  return to;
}

/**
 * A copy of `from` (same type) of `length` elements with element i at `map[i]`, for every i of
 * `map` that `from` holds and whose `map[i]` is not -1: a column keyed by slot, moved with the
 * players it describes when the id table is rehashed into `length` slots.
 */
export function permuted<T extends NumberArray>(from: T, map: Int32Array, length: number): T {
  const to = new (from.constructor as new (length: number) => T)(length);
  const end = Math.min(map.length, from.length);
  for (let i = 0; i < end; i++) {
    const at = map[i]!;
    if (at >= 0) to[at] = from[i]!;
  }
  return to;
}

/** murmur3's 32-bit finaliser: spreads an integer's bits, for hash tables and treap priorities. */
export function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
