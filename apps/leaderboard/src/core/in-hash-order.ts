/** 2^11 buckets: their write streams (two 64-byte lines each) fit in a core's cache. */
const SHIFT = 21;
const BUCKETS = 1 << (32 - SHIFT);

/**
 * The slots and their hashes, ordered by the top bits of the hash (a counting sort, stable): the
 * order of their home slots in a table of any size, so that a rehash writes each bucket's ids
 * into one small stretch of the new table instead of one slot at random per id.
 */
export function inHashOrder(
  slots: Int32Array,
  hashes: Uint32Array,
): { readonly slots: Int32Array; readonly hashes: Uint32Array } {
  const count = slots.length;
  const starts = new Int32Array(BUCKETS + 1);
  for (let i = 0; i < count; i++) starts[(hashes[i]! >>> SHIFT) + 1]!++;
  for (let bucket = 1; bucket <= BUCKETS; bucket++) starts[bucket]! += starts[bucket - 1]!;
  const sortedSlots = new Int32Array(count);
  const sortedHashes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const hash = hashes[i]!;
    const at = starts[hash >>> SHIFT]!++;
    sortedSlots[at] = slots[i]!;
    sortedHashes[at] = hash;
  }
  return { slots: sortedSlots, hashes: sortedHashes };
}
