// The fence floor: `fence` fields older than the horizon are pruned, and a write carrying a token
// below the floor is refused as the pruned field would have refused it. The stalled process is a
// store whose connection to one instance goes through a hook the test holds (as in
// sharded-placement.test.ts), released after the horizon passed and the fence was pruned.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { homeShard } from '../../../src/adapters/redis/shard-layout.ts';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { Win } from '../../../src/core/win.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';
import { stallHolder } from './stalled-holder.ts';

t.setTimeout(120_000);

const servers = await startRedisServers(t, 3);
const PERIOD = '2026-11';
// Short: the stalled holders below wait it out within a reader's patience.
const HORIZON_MS = 400;
// Far above what the writes between the old and the new fields take on a loaded machine.
const SLICES_HORIZON_MS = 2_000;

const key = (prefix: string, part: string) => `${prefix}{${PERIOD}}:${part}`;
const newPrefix = () => `t${randomBytes(4).toString('hex')}:lb:`;

async function where(prefix: string, user: string): Promise<(number | null)[]> {
  const scores = await Promise.all(servers.map((r) => r.zscore(key(prefix, 'rank'), user)));
  return scores.map((s) => (s === null ? null : Number(s)));
}

/** The users with a `fence` field on each instance, sorted. */
async function fenced(prefix: string): Promise<string[][]> {
  const fields = await Promise.all(servers.map((r) => r.hkeys(key(prefix, 'fence'))));
  return fields.map((list) => list.sort());
}

t.test('fields older than the horizon are pruned, newer ones kept, in slices', async (t) => {
  const prefix = newPrefix();
  // Every player on the bottom shard: 2,500 fields there, more than one slice.
  const store = new ShardedRankingStore(servers, {
    tieBreak: 'shared',
    keyPrefix: prefix,
    initialBounds: [1_000, 500],
    fenceHorizonMs: SLICES_HORIZON_MS,
  });
  const old = Array.from({ length: 2_500 }, (_, i) => `old-${i}`);
  await store.applyBatch(old.map((user, i) => win(i + 1, user, 1)));
  t.equal(await servers[2]!.hlen(key(prefix, 'fence')), old.length, 'a field per player written');
  await sleep(SLICES_HORIZON_MS + 100);
  await store.applyWin(win(3_001, 'new-a', 2));
  await store.applyWin(win(3_002, 'old-7', 3));
  const before = Date.now();
  t.equal(await store.pruneFence(PERIOD), old.length - 1, 'every field past the horizon, and only those');
  t.same(await fenced(prefix), [[], [], ['new-a', 'old-7']], 'the fields written since are kept');
  const floor = Number(await servers[2]!.hget(key(prefix, 'ctl'), 'floor'));
  t.ok(
    Math.abs(floor / 1_000 - (before - SLICES_HORIZON_MS)) < 1_000,
    'the floor is the server’s clock minus the horizon',
  );
  t.same(await store.standing(PERIOD, 'old-7'), { userId: 'old-7', score: 4, rank: 1 });
  await store.applyWin(win(3_003, 'old-9', 5));
  t.same(await store.standing(PERIOD, 'old-9'), { userId: 'old-9', score: 6, rank: 1 }, 'new tokens pass');
  t.equal(await store.players(PERIOD), old.length + 1);
});

t.test('a pass runs only when it raises the floor by a quarter of the horizon or more', async (t) => {
  const prefix = newPrefix();
  const store = new ShardedRankingStore(servers, { tieBreak: 'shared', keyPrefix: prefix });
  await store.applyWin(win(1, 'a', 1));
  t.equal(await store.pruneFence(PERIOD), 0, 'nothing is an hour old');
  const floors = () => Promise.all(servers.map((r) => r.hget(key(prefix, 'ctl'), 'floor')));
  const first = await floors();
  t.ok(
    first.every((floor) => floor !== null),
    'the first pass raised every floor',
  );
  await store.pruneFence(PERIOD);
  t.same(await floors(), first, 'the next one, a moment later, left them');
});

/**
 * `user` is on the bottom shard (2) with 1 point. The stalled store applies `stalled`; its first
 * write to shard `held` (not the player's home) waits at the hook while `meanwhile` runs and the
 * horizon passes; then the fence is pruned and the write goes through, carrying a token below
 * the floor.
 */
async function stallPastHorizon(
  t: Test,
  user: string,
  held: number,
  stalled: Win,
  meanwhile: (other: ShardedRankingStore) => Promise<unknown>,
) {
  const prefix = newPrefix();
  const options = { tieBreak: 'shared', keyPrefix: prefix, initialBounds: [10, 5] } as const;
  const other = new ShardedRankingStore(servers, { ...options, fenceHorizonMs: HORIZON_MS });
  await other.applyWin(win(1, user, 1));
  await other.applyWin(win(2, 'b', 12));
  const { hook, late } = await stallHolder(t, servers, held, options, stalled);
  const home = servers[homeShard(user, servers.length)]!;
  await meanwhile(other);
  await sleep(HORIZON_MS + 100);
  t.ok((await other.pruneFence(PERIOD)) > 0, 'the fence was pruned');
  t.equal(await servers[held]!.hexists(key(prefix, 'fence'), user), 0, 'the player’s field is gone');
  hook.release();
  await late;
  t.equal(await servers[held]!.hexists(key(prefix, 'fence'), user), 0, 'the refused write left no field');
  t.same(
    await Promise.all(servers.map((r) => r.zcard(key(prefix, 'moving')))),
    [0, 0, 0],
    'no move record left',
  );
  return { prefix, other, home };
}

t.test('a write below the floor is refused where the next holder wrote and was pruned', async (t) => {
  // `a` (home 1) stays on shard 2; without the floor the stalled put (total 2) would overwrite 3.
  const { prefix, other } = await stallPastHorizon(t, 'a', 2, win(3, 'a', 1), (o) =>
    o.applyWin(win(4, 'a', 1)),
  );
  t.same(await where(prefix, 'a'), [null, null, 3], 'the newest total stays');
  t.same(await other.standing(PERIOD, 'a'), { userId: 'a', score: 3, rank: 2 });
});

t.test(
  'a move below the floor is refused: the player stays on one shard, with the newest total',
  async (t) => {
    // `g` (home 0) moves from shard 2 to shard 1: the stalled add there (total 6) arrives after the
    // next holder scrubbed `g` onto shard 1 with 7 and its fields were pruned.
    const { prefix, other } = await stallPastHorizon(t, 'g', 1, win(3, 'g', 5), (o) =>
      o.applyWin(win(4, 'g', 1)),
    );
    t.same(await where(prefix, 'g'), [null, 7, null], 'on shard 1 alone, with the newest total');
    t.same(await other.top(PERIOD, 0, 10), [
      { userId: 'b', score: 12, rank: 1 },
      { userId: 'g', score: 7, rank: 2 },
    ]);
  },
);

t.test('a holder refused by the floor alone drops the player; recover takes its lapsed lease', async (t) => {
  // Nobody else wrote `a`: the stalled put carries the newest total, yet it is refused (its token
  // is older than the horizon), changes nothing and keeps the lease, which recover takes over.
  const { prefix, other, home } = await stallPastHorizon(t, 'a', 2, win(3, 'a', 1), () => Promise.resolve());
  t.same(await where(prefix, 'a'), [null, null, 1], 'the entry is unchanged');
  t.equal(await home.hexists(key(prefix, 'lease'), 'a'), 1, 'the refused holder did not give its lease back');
  await other.recover(PERIOD);
  t.same(await where(prefix, 'a'), [null, null, 2], 'recover wrote the total');
  t.equal(await home.hlen(key(prefix, 'lease')), 0);
  t.same(await other.standing(PERIOD, 'a'), { userId: 'a', score: 2, rank: 2 });
});
