/**
 * Where players live when the ranking is split over several Redis instances (pure: no I/O).
 *
 * - The *home* of a player (hash of the id) keeps its total, the seqs applied and a lease: the
 *   one place a win is applied atomically, so idempotency does not depend on where it is ranked.
 * - The *range shard* of an encoded score holds the player's sorted-set entry: shard 0 the
 *   highest scores. `bounds` are the N-1 lower limits of shards 0..N-2, descending: shard i holds
 *   [bounds[i], bounds[i-1]).
 */

/** FNV-1a over the UTF-16 units: stable across processes and versions. */
export function homeShard(userId: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

/** The range shard of an encoded score (with no bounds yet, every score is on shard 0). */
export function rangeShard(encoded: number, bounds: readonly number[]): number {
  for (let i = 0; i < bounds.length; i++) if (encoded >= bounds[i]!) return i;
  return bounds.length;
}

/** One sorted-set entry: Redis orders equal scores by member, bytewise. */
export interface Entry {
  readonly member: string;
  readonly encoded: number;
}

/** True when `a` comes before `b` in a descending ranking (ZREVRANGE order). */
export function ranksAbove(a: Entry, b: Entry): boolean {
  if (a.encoded !== b.encoded) return a.encoded > b.encoded;
  return Buffer.compare(Buffer.from(a.member), Buffer.from(b.member)) > 0;
}

/** True when each entry ranks above the next: in ZREVRANGE order, no player twice. */
export function descending(entries: readonly Entry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (!ranksAbove(entries[i - 1]!, entries[i]!)) return false;
  return true;
}

/** Merges lists each in ZREVRANGE order into one. */
export function mergeDescending(lists: readonly (readonly Entry[])[]): Entry[] {
  const all = lists.flat();
  return all.sort((a, b) => (ranksAbove(a, b) ? -1 : ranksAbove(b, a) ? 1 : 0));
}

/** The highest and lowest entry of one shard (undefined when it is empty). */
export interface ShardExtent {
  readonly count: number;
  readonly first: Entry | undefined;
  readonly last: Entry | undefined;
}

/**
 * True when every entry of each shard ranks above every entry of the shards after it: then a
 * global position is found by counts alone. False while a rebalance or a stale placement leaves
 * a player out of its range (readers then merge).
 */
export function inShardOrder(extents: readonly ShardExtent[]): boolean {
  let above: Entry | undefined;
  for (const extent of extents) {
    if (extent.first === undefined || extent.last === undefined) continue;
    if (above !== undefined && !ranksAbove(above, extent.first)) return false;
    above = extent.last;
  }
  return true;
}
