import { home } from './id-keys.ts';
import { inHashOrder } from './in-hash-order.ts';
import { halfOf, keyOf, setHalf, wordsFor } from './slot-words.ts';

/** From this many ids a rehash buckets them by home slot first (see `rehashed`). */
const SORTED_REHASH_FROM = 1 << 16;

/** The id table's slots moved into a larger or smaller table, and where each went. */
export interface Rehashed {
  /** The slots' words (see SlotWords): keys and 16-bit block ids moved together. */
  readonly words: Uint32Array;
  /** The hex bits by new slot. */
  readonly hex: Uint32Array<ArrayBuffer>;
  /** Old slot → new slot (-1 for an empty one). */
  readonly map: Int32Array;
}

/**
 * Moves the `count` ids in `from` (`old` slots, `fromHex` their hex bits; `hashOf` an occupied
 * slot's hash) into `capacity` slots. Inserted in slot order, each insert writes a slot at
 * random: a cache and TLB miss per player, most of a replay's time at scale. So a large table is
 * filled in order of home slot instead: the ids are first bucketed by the top bits of their hash
 * (a counting sort: one write stream per bucket, which stay cached), then each bucket's inserts
 * land in its own small stretch of the table.
 */
export function rehashed(
  from: Uint32Array,
  fromHex: Uint32Array,
  old: number,
  count: number,
  capacity: number,
  hashOf: (slot: number) => number,
): Rehashed {
  const words = new Uint32Array(wordsFor(capacity));
  const hex = new Uint32Array((capacity + 31) >>> 5);
  const map = new Int32Array(old).fill(-1);
  const move = (slot: number, hash: number): void => {
    const to = insert(words, capacity, hash);
    const k = keyOf(slot);
    const t = keyOf(to);
    words[t] = from[k]!;
    words[t + 1] = from[k + 1]!;
    words[t + 2] = from[k + 2]!;
    setHalf(words, to, halfOf(from, slot));
    if ((fromHex[slot >>> 5]! & (1 << (slot & 31))) !== 0) hex[to >>> 5]! |= 1 << (to & 31);
    map[slot] = to;
  };
  const occupied = (slot: number): boolean => {
    const k = keyOf(slot);
    return (from[k]! | from[k + 1]! | from[k + 2]!) !== 0;
  };
  if (count < SORTED_REHASH_FROM) {
    for (let slot = 0; slot < old; slot++) if (occupied(slot)) move(slot, hashOf(slot));
  } else {
    // Each key is hashed once (a hex key is three mix32 rounds): kept for the bucketing.
    const slots = new Int32Array(count);
    const hashes = new Uint32Array(count);
    let n = 0;
    for (let slot = 0; slot < old; slot++) {
      if (!occupied(slot)) continue;
      slots[n] = slot;
      hashes[n++] = hashOf(slot);
    }
    const sorted = inHashOrder(slots, hashes);
    for (let i = 0; i < n; i++) move(sorted.slots[i]!, sorted.hashes[i]!);
  }
  return { words, hex, map };
}

/** The first empty slot of `words` (see SlotWords) from `hash`'s home: no key is compared, it is new. */
function insert(words: Uint32Array, capacity: number, hash: number): number {
  let slot = home(hash, capacity);
  for (let k = keyOf(slot); (words[k]! | words[k + 1]! | words[k + 2]!) !== 0; k = keyOf(slot))
    slot = slot + 1 === capacity ? 0 : slot + 1;
  return slot;
}
