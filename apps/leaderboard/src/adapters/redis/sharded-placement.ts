import type { Period } from '../../core/period.ts';
import { LuaScript } from './lua-script.ts';
import { RANGE_MOVE_DONE, RANGE_MOVE_IN, RANGE_MOVE_OUT, RANGE_PUT } from './shard-range-scripts.ts';
import { rangeShard } from './shard-layout.ts';
import type { ShardedContext } from './sharded-context.ts';
import { releaseLeases, type Placement, type Released } from './sharded-leases.ts';

const rangePut = new LuaScript(RANGE_PUT);
const moveIn = new LuaScript(RANGE_MOVE_IN);
const moveOut = new LuaScript(RANGE_MOVE_OUT);
const moveDone = new LuaScript(RANGE_MOVE_DONE);

/**
 * Writes the entries of the players leased, going round while their totals moved on. A player
 * whose token a range shard refuses was taken over by a newer lease (this process stalled past
 * its own): that holder scrubs it from the total, so this one drops it. With `later`, the leases
 * of the entries written are handed to it instead of given back here (PendingReleases: the next
 * step carries them), and whoever gives them back places the players whose totals moved on.
 */
export async function place(
  context: ShardedContext,
  period: Period,
  placements: readonly Placement[],
  later?: (released: readonly Released[]) => void,
): Promise<void> {
  let pending = placements;
  while (pending.length > 0) {
    const bounds = await context.boundsOf(period);
    const placed = pending.map((p) => ({ ...p, to: rangeShard(Number(p.encoded), bounds) }));
    const puts = new Map<number, Placement[]>();
    const moves = new Map<string, { from: number; to: number; list: Placement[] }>();
    const scrubs = new Map<number, Placement[]>();
    for (const p of placed) {
      if (p.scrub) scrubs.set(p.to, [...(scrubs.get(p.to) ?? []), p]);
      else if (p.shard === undefined || p.shard === p.to) puts.set(p.to, [...(puts.get(p.to) ?? []), p]);
      else {
        const key = `${p.shard}>${p.to}`;
        const move = moves.get(key) ?? { from: p.shard, to: p.to, list: [] };
        move.list.push(p);
        moves.set(key, move);
      }
    }
    const keys = context.keys.range(period);
    const refused = new Set<string>();
    const write = async (shard: number, script: LuaScript, args: readonly (string | number)[]) => {
      for (const user of (await script.run(context.shards[shard]!, keys, args)) as string[])
        refused.add(user);
    };
    /** A move in three steps, each atomic on its instance; a step refused ends it for that player. */
    const move = async (to: number, from: readonly number[], list: readonly Placement[]) => {
      await write(to, moveIn, [context.leaseMs, ...list.flatMap((p) => [p.userId, p.encoded, p.token])]);
      const going = list.filter((p) => !refused.has(p.userId));
      if (going.length === 0) return;
      await Promise.all(
        from.map((shard) =>
          write(
            shard,
            moveOut,
            going.flatMap((p) => [p.userId, p.token]),
          ),
        ),
      );
      // Refused on a shard it leaves: a newer holder is scrubbing it, and clears this record too.
      const moved = going.filter((p) => !refused.has(p.userId));
      if (moved.length > 0)
        await write(
          to,
          moveDone,
          moved.flatMap((p) => [p.userId, p.token]),
        );
    };
    await Promise.all([
      ...[...puts].map(([to, list]) =>
        write(
          to,
          rangePut,
          list.flatMap((p) => [p.userId, p.encoded, p.token]),
        ),
      ),
      ...[...moves.values()].map((m) => move(m.to, [m.from], m.list)),
      ...[...scrubs].map(([to, list]) =>
        move(
          to,
          context.shards.map((_, shard) => shard).filter((shard) => shard !== to),
          list,
        ),
      ),
    ]);
    const written = placed.filter((p) => !refused.has(p.userId));
    if (later !== undefined) return later(written);
    pending = await releaseLeases(context, period, written);
  }
}
