import type { Period } from '../../core/period.ts';
import { LuaScript } from './lua-script.ts';
import { RANGE_PRUNE } from './shard-range-scripts.ts';
import type { ShardedContext } from './sharded-context.ts';

const rangePrune = new LuaScript(RANGE_PRUNE);

/** Fields looked at per script: each slice is one short script (HSCAN's COUNT is a hint). */
const PRUNE_SLICE = 1_000;

/**
 * Raises every range shard's fence floor to its clock minus `horizonMs` and deletes the `fence`
 * fields below it, a slice per round trip. Answers the fields deleted. A shard whose floor was
 * raised lately (by any process) is skipped; a pass cut short leaves its fields to the next one.
 */
export async function pruneFence(
  context: ShardedContext,
  period: Period,
  horizonMs: number,
): Promise<number> {
  const keys = context.keys.prune(period);
  const pruned = await Promise.all(
    context.shards.map(async (instance) => {
      let cursor = '0';
      let count = 0;
      do {
        const [next, deleted] = (await rangePrune.run(instance, keys, [
          cursor,
          horizonMs * 1_000,
          PRUNE_SLICE,
        ])) as [string, number];
        cursor = next;
        count += deleted;
      } while (cursor !== '0');
      return count;
    }),
  );
  return pruned.reduce((sum, n) => sum + n, 0);
}
