// A process applying a win killed (SIGKILL) at a chosen step of the placement: the child's
// connection to one instance goes through a hook the test holds, so it stops right before its
// first command there; the test kills it once the step before is visible in Redis.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitForExit } from '@tessera/testkit';
import t, { type Test } from 'tap';
import { RedisRankingStore } from '../../../src/adapters/redis/redis-ranking-store.ts';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { Win } from '../../../src/core/win.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';
import { startTcpHook } from './tcp-hook.ts';

t.setTimeout(120_000);

const servers = await startRedisServers(t, 3);
const ports = servers.map((r) => r.options.port!);
const PERIOD = '2026-11';
const BOUNDS = [10, 5];
// Long enough that the test's own steps after the kill fit in it on a busy machine.
const CHILD_LEASE_MS = 1_000;
const fixture = fileURLToPath(new URL('../../fixtures/sharded-apply-win.ts', import.meta.url));

/** Where a player's entry is: its score on each shard (null: not there). */
async function where(prefix: string, user: string): Promise<(number | null)[]> {
  const scores = await Promise.all(servers.map((r) => r.zscore(`${prefix}{${PERIOD}}:rank`, user)));
  return scores.map((s) => (s === null ? null : Number(s)));
}

async function movesInFlight(prefix: string): Promise<number> {
  const counts = await Promise.all(servers.map((r) => r.zcard(`${prefix}{${PERIOD}}:moving`)));
  return counts.reduce((a, b) => a + b, 0);
}

interface Crash {
  readonly prefix: string;
  /** A fresh store on the same keys: another process, or this one restarted. */
  readonly store: ShardedRankingStore;
  /** The same wins on one instance, unsharded. */
  readonly reference: RedisRankingStore;
}

/**
 * Seeds a few players (`user` among them, on the bottom shard), then has a child apply `next`
 * with its connection to shard `held` held, and kills it once `reached` holds.
 */
async function crash(
  t: Test,
  user: string,
  next: Win,
  held: number,
  reached: (prefix: string) => Promise<boolean>,
): Promise<Crash> {
  const prefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const store = new ShardedRankingStore(servers, {
    tieBreak: 'shared',
    keyPrefix: prefix,
    initialBounds: BOUNDS,
  });
  const reference = new RedisRankingStore(servers[0]!, { tieBreak: 'shared', keyPrefix: `${prefix}ref:` });
  const seed = [win(1, 'g', 12), win(2, 'x1', 7), win(3, user, 1), win(4, 'x2', 2)];
  for (const w of seed) {
    await store.applyWin(w);
    await reference.applyWin(w);
  }
  // Its leases given back: the lease the test watches for is then the child's.
  await store.settle();
  await reference.applyWin(next);
  const hook = await startTcpHook(t, ports[held]!);
  hook.hold();
  const args = {
    ports: ports.map((port, i) => (i === held ? hook.port : port)),
    keyPrefix: prefix,
    leaseMs: CHILD_LEASE_MS,
    initialBounds: BOUNDS,
    win: next,
  };
  const child = spawn(process.execPath, [...process.execArgv, fixture, JSON.stringify(args)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let seen = false;
  for (let i = 0; i < 2_000 && !seen; i++) {
    seen = await reached(prefix);
    if (!seen) await sleep(10);
  }
  child.kill('SIGKILL');
  await waitForExit(child);
  hook.cut();
  t.ok(seen, 'the child got to the step before the one held, and was killed there');
  return { prefix, store, reference };
}

/** The whole ranking, the player's standing, and no move or lease left behind. */
async function whole(t: Test, { prefix, store, reference }: Crash, user: string, shard: number) {
  t.same(await store.standing(PERIOD, user), await reference.standing(PERIOD, user), `${user}'s standing`);
  t.same(await store.top(PERIOD, 0, 100), await reference.top(PERIOD, 0, 100), 'the whole ranking, exact');
  const score = (await reference.standing(PERIOD, user))!.score;
  const expected = servers.map((_, i) => (i === shard ? score : null));
  t.same(await where(prefix, user), expected, `${user} on shard ${shard} alone`);
  t.equal(await movesInFlight(prefix), 0, 'no move left in flight');
  const leases = await Promise.all(servers.map((r) => r.hlen(`${prefix}{${PERIOD}}:lease`)));
  t.same(leases, [0, 0, 0], 'every lease given back');
}

// `mover` (home 1) goes from the bottom shard to the top one: added on shard 0 under a move
// record, then the child stops before removing it from shard 2 (held).
const midMove = (t: Test) =>
  crash(t, 'mover', win(5, 'mover', 20), 2, async (prefix) => {
    return (await servers[0]!.zscore(`${prefix}{${PERIOD}}:moving`, 'mover')) !== null;
  });

t.test('killed mid-move: a read waits for the move’s deadline, then finishes it', async (t) => {
  const crashed = await midMove(t);
  t.same(await where(crashed.prefix, 'mover'), [21, null, 1], 'left on two shards, under a move record');
  const started = performance.now();
  t.same(await crashed.store.standing(PERIOD, 'mover'), { userId: 'mover', score: 21, rank: 1 });
  t.ok(performance.now() - started < CHILD_LEASE_MS + 5_000, 'within the dead owner’s lease and a little');
  await whole(t, crashed, 'mover', 0);
});

t.test('killed mid-move: the next win of the player finishes it', async (t) => {
  const crashed = await midMove(t);
  await sleep(CHILD_LEASE_MS + 50);
  const next = win(6, 'mover', 1);
  t.same(await crashed.store.applyWin(next), await crashed.reference.applyWin(next));
  await whole(t, crashed, 'mover', 0);
});

t.test('killed mid-move: the rebalance timer (recover) finishes it with no read or win', async (t) => {
  const crashed = await midMove(t);
  await sleep(CHILD_LEASE_MS + 50);
  await crashed.store.recover(PERIOD);
  t.same(await where(crashed.prefix, 'mover'), [21, null, null]);
  t.equal(await movesInFlight(crashed.prefix), 0);
  await whole(t, crashed, 'mover', 0);
});

// `stale` (home 0) took its lease for a win that moves it to shard 1, and the child dies before
// writing anything there (held): the entry on shard 2 still has the old total.
const leaseTaken = (t: Test) =>
  crash(t, 'stale', win(5, 'stale', 5), 1, async (prefix) => {
    return (await servers[0]!.hexists(`${prefix}{${PERIOD}}:lease`, 'stale')) === 1;
  });

t.test(
  'killed between taking the lease and writing: recover rewrites the entry from the total',
  async (t) => {
    const crashed = await leaseTaken(t);
    t.same(await where(crashed.prefix, 'stale'), [null, null, 1], 'the entry is stale');
    await crashed.store.recover(PERIOD);
    t.same(await where(crashed.prefix, 'stale'), [null, null, 1], 'a live lease is its holder’s');
    await sleep(CHILD_LEASE_MS + 50);
    await crashed.store.recover(PERIOD);
    await whole(t, crashed, 'stale', 1);
  },
);

t.test('killed between taking the lease and writing: the next taker of the lease repairs it', async (t) => {
  const crashed = await leaseTaken(t);
  await sleep(CHILD_LEASE_MS + 50);
  const next = win(6, 'stale', 1);
  t.same(await crashed.store.applyWin(next), await crashed.reference.applyWin(next));
  await whole(t, crashed, 'stale', 1);
});
