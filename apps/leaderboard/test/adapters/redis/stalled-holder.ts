/**
 * A holder that stalls past its lease (sharded-placement.test.ts, sharded-fence.test.ts): a store
 * whose connection to instance `held` goes through a hook the test holds. It applies `stalled`;
 * its first write to `held` waits at the hook while its lease lapses. The caller lets it through
 * with `hook.release()` and awaits `late`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { pollUntil } from '@tessera/testkit';
import { Redis } from 'ioredis';
import type { Test } from 'tap';
import { homeShard } from '../../../src/adapters/redis/shard-layout.ts';
import {
  ShardedRankingStore,
  type ShardedRankingStoreOptions,
} from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { Standing } from '../../../src/core/standing.ts';
import type { Win } from '../../../src/core/win.ts';
import { startTcpHook, type TcpHook } from './tcp-hook.ts';

/** Short: the stalled holders wait it out within a reader's patience. */
export const STALLED_LEASE_MS = 200;

export async function stallHolder(
  t: Test,
  servers: readonly Redis[],
  held: number,
  options: ShardedRankingStoreOptions,
  stalled: Win,
): Promise<{ readonly hook: TcpHook; readonly late: Promise<Standing> }> {
  const hook = await startTcpHook(t, servers[held]!.options.port!);
  const viaHook = new Redis(hook.port, '127.0.0.1');
  t.teardown(() => viaHook.disconnect());
  await viaHook.ping();
  const store = new ShardedRankingStore(
    servers.map((r, i) => (i === held ? viaHook : r)),
    { ...options, leaseMs: STALLED_LEASE_MS },
  );
  hook.hold();
  const late = store.applyWin(stalled);
  const home = servers[homeShard(stalled.userId, servers.length)]!;
  const lease = `${options.keyPrefix}{${stalled.period}}:lease`;
  await pollUntil(
    'the stalled holder to take its lease',
    async () => (await home.hexists(lease, stalled.userId)) === 1,
    {
      ms: 10_000,
      intervalMs: 5,
    },
  );
  // Time must pass for the lease to lapse: load makes this sleep longer, never shorter.
  await sleep(STALLED_LEASE_MS + 50);
  return { hook, late };
}
