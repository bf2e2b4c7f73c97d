import type { Period } from '../../core/period.ts';
import type { ShardedBounds } from './sharded-bounds.ts';
import type { ShardedContext } from './sharded-context.ts';
import { takeLapsed, takeLeases } from './sharded-leases.ts';
import { place } from './sharded-placement.ts';
import { RETRY, still, type ShardedReads } from './sharded-reads.ts';

const REBALANCE_BATCH = 1_000;

/**
 * After the period was replayed onto instances of which one had come back empty: every player's
 * entry is written again from its home's total, on its range shard alone. The replay only
 * places players whose totals it changed, so an entry that lived on the emptied instance would
 * otherwise stay missing, and one whose location record was lost could be left on two shards.
 * Players whose lease another process holds are that process's to place.
 */
export async function repair(context: ShardedContext, period: Period): Promise<void> {
  const scoreKey = context.keys.of(period, 'score');
  for (let home = 0; home < context.shards.length; home++) {
    let cursor = '0';
    do {
      const [next, flat] = await context.shards[home]!.hscan(scoreKey, cursor, 'COUNT', REBALANCE_BATCH);
      cursor = next;
      const users = flat.filter((_, i) => i % 2 === 0);
      if (users.length === 0) continue;
      const taken = await takeLeases(context, period, users, false);
      if (taken.length > 0)
        await place(
          context,
          period,
          taken.map((p) => ({ ...p, scrub: true })),
        );
    } while (cursor !== '0');
  }
}

/**
 * Finishes what dead or stalled processes left: the moves past their deadline (taken over, see
 * takeOver) and the leases that lapsed without being given back (the entry may be stale or on
 * two shards: scrubbed from the total). Run by the rebalance, so by every process's timer.
 */
export async function recover(context: ShardedContext, reads: ShardedReads, period: Period): Promise<void> {
  await reads.looks(period, '+inf', '');
  const lapsed = await takeLapsed(context, period);
  if (lapsed.length > 0) await place(context, period, lapsed);
}

/**
 * A move past its deadline: its owner died or stalled mid-move, the entry may be on two shards.
 * The players' leases are taken by force (their tokens fence the owner off) and their entries
 * scrubbed from the totals: written on the range shard, removed from every other.
 */
export async function takeOver(
  context: ShardedContext,
  period: Period,
  users: readonly string[],
): Promise<void> {
  const taken = await takeLeases(context, period, users, true);
  if (taken.length > 0) await place(context, period, taken);
}

/**
 * Picks bounds that give each shard an equal share of the period's players, publishes them, then
 * moves the players now out of their shard's range (those whose lease another process holds are
 * left to it). The caller recovers and prunes first (ShardedRankingStore.rebalance).
 */
export async function moveBounds(
  context: ShardedContext,
  reads: ShardedReads,
  bounds: ShardedBounds,
  period: Period,
): Promise<readonly number[]> {
  const picked = await pickBounds(context, reads, period);
  await bounds.publish(period, picked);
  const rank = context.keys.of(period, 'rank');
  for (let shard = 0; shard < context.shards.length; shard++) {
    // A shard past the bounds (fewer distinct scores than shards) has no range: all of it moves.
    const empty = shard > picked.length;
    const upper = empty ? '-inf' : shard === 0 ? undefined : picked[shard - 1];
    const lower = empty ? undefined : picked[shard];
    const instance = context.shards[shard]!;
    // Bounded: each round moves what it leases; what stays leased elsewhere is its placer's.
    for (let round = 0; round < 1_000; round++) {
      const out = [
        ...(upper === undefined
          ? []
          : await instance.zrangebyscore(rank, upper, '+inf', 'LIMIT', 0, REBALANCE_BATCH)),
        ...(lower === undefined
          ? []
          : await instance.zrangebyscore(rank, '-inf', `(${lower}`, 'LIMIT', 0, REBALANCE_BATCH)),
      ];
      if (out.length === 0) break;
      const placements = await takeLeases(context, period, out, false);
      if (placements.length === 0) break;
      await place(context, period, placements);
    }
  }
  return picked;
}

/** The encoded scores at each shard's equal share of the ranking, read while no move is in flight. */
function pickBounds(context: ShardedContext, reads: ShardedReads, period: Period): Promise<number[]> {
  return reads.consistent(async () => {
    const looks = await reads.looks(period, '+inf', '');
    if (looks === RETRY || !still(looks)) return RETRY;
    const total = looks.reduce((sum, look) => sum + look.count, 0);
    const picked: number[] = [];
    for (let i = 1; i < context.shards.length; i++) {
      const at = Math.max(0, Math.ceil((total * i) / context.shards.length) - 1);
      const [entry] = await reads.page(period, looks, at, 1);
      const previous = picked.at(-1);
      if (entry !== undefined && (previous === undefined || entry.encoded < previous))
        picked.push(entry.encoded);
    }
    // No move between the looks; players joining only shift the positions picked a little.
    const verify = await reads.looks(period, '+inf', '', { looks, above: -1 });
    return verify === RETRY || !still(verify) || verify.some((look) => look.changed) ? RETRY : picked;
  });
}
