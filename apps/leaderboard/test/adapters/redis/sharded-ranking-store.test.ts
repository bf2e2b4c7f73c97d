import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { TieBreak } from '../../../src/core/standing.ts';
import { rankingStoreSuite, win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';

t.setTimeout(600_000);

// Servers of this test's own: 3 instances, the 2-shard stores use the first two.
const servers = await startRedisServers(t, 3);

function open(shards: readonly Redis[], tieBreak: TieBreak, initialBounds: readonly number[]) {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  return new ShardedRankingStore(shards, { tieBreak, keyPrefix, initialBounds });
}

t.test('the RankingStore port suite, on 2 shards', async (t) => {
  // Bounds low enough that the suite's players cross them.
  rankingStoreSuite(t, (_t, tieBreak) => Promise.resolve(open(servers.slice(0, 2), tieBreak, [7])));
});

t.test('the RankingStore port suite, on 3 shards', async (t) => {
  rankingStoreSuite(t, (_t, tieBreak) => Promise.resolve(open(servers, tieBreak, [7, 4])));
});

t.test('a player crossing bounds is on one shard only, its home keeps the total', async (t: Test) => {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const store = new ShardedRankingStore(servers, { tieBreak: 'shared', keyPrefix, initialBounds: [10, 5] });
  const where = async (user: string) =>
    (await Promise.all(servers.map((r) => r.zscore(`${keyPrefix}{2026-11}:rank`, user)))).map((s) =>
      s === null ? null : Number(s),
    );
  await store.applyWin(win(1, 'a', 1));
  t.same(await where('a'), [null, null, 1], 'below 5: the bottom shard');
  await store.applyWin(win(2, 'b', 6));
  t.same(await store.applyWin(win(3, 'a', 20)), { userId: 'a', score: 21, rank: 1 });
  t.same(await where('a'), [21, null, null], 'two bounds crossed at once: on the top shard alone');
  t.same(await where('b'), [null, 6, null]);
  t.equal(await store.players('2026-11'), 2);
  t.same(
    (await store.top('2026-11', 0, 10)).map((s) => [s.userId, s.score, s.rank]),
    [
      ['a', 21, 1],
      ['b', 6, 2],
    ],
  );
});

t.test('readers during moves and rebalances see every player exactly once', async (t) => {
  const store = open(servers, 'earliest', [30, 10]);
  const players = Array.from({ length: 60 }, (_, i) => `r${i}`);
  await store.applyBatch(players.map((p, i) => win(i + 1, p, 1 + (i % 5))));
  let seq = players.length;
  let done = false;
  const writer = (async () => {
    for (let round = 0; round < 30; round++) {
      const wins = players.filter((_, i) => (i + round) % 3 === 0).map((p) => win(++seq, p, 1 + (round % 7)));
      await Promise.all(wins.map((w) => store.applyWin(w)));
      if (round % 10 === 5) await store.rebalance('2026-11');
    }
    done = true;
  })();
  let reads = 0;
  while (!done) {
    const all = await store.top('2026-11', 0, 1_000);
    const ids = new Set(all.map((s) => s.userId));
    if (ids.size !== players.length || all.length !== players.length) {
      t.fail(`a read saw ${all.length} entries for ${ids.size} players`);
      break;
    }
    reads++;
  }
  await writer;
  t.ok(reads > 0, `${reads} reads while players moved`);
  t.equal((await store.top('2026-11', 0, 1_000)).length, players.length);
});

t.test('an instance back empty: the replay and a repair give every player back, once', async (t) => {
  const PERIOD = '2026-11';
  const players = Array.from({ length: 40 }, (_, i) => `e${i}`);
  // Points that spread the players over all three shards, some crossing bounds on the way.
  const wins = players.flatMap((p, i) => [win(2 * i + 1, p, 1 + (i % 4)), win(2 * i + 2, p, i % 9)]);
  for (const emptied of [0, 1, 2]) {
    const reference = open(servers.slice(0, 1), 'shared', []);
    await reference.applyBatch(wins);
    const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
    const store = new ShardedRankingStore(servers, { tieBreak: 'shared', keyPrefix, initialBounds: [8, 4] });
    await store.applyBatch(wins);
    const keys = await servers[emptied]!.keys(`${keyPrefix}*`);
    if (keys.length > 0) await servers[emptied]!.del(...keys);
    t.equal(await store.appliedSeq(PERIOD), 0, `instance ${emptied} emptied: the watermark went back`);
    // What the ranking watch does: replay the log from the watermark, then repair.
    await store.applyBatch(wins);
    await store.repair(PERIOD);
    t.same(
      await store.top(PERIOD, 0, 1_000),
      await reference.top(PERIOD, 0, 1_000),
      `instance ${emptied} emptied: every player back, once, at the right rank`,
    );
    t.equal(await store.players(PERIOD), players.length);
  }
});

t.test('a win is two script round trips; its lease goes back with the next home script', async (t) => {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  // Releases wait for a next home script as long as the test looks (a minute, not 2 ms).
  const store = new ShardedRankingStore(servers, {
    tieBreak: 'shared',
    keyPrefix,
    initialBounds: [10, 5],
    releaseDelayMs: 60_000,
  });
  const leases = () => Promise.all(servers.map((r) => r.hkeys(`${keyPrefix}{2026-11}:lease`)));
  await store.applyWin(win(1, 'warm', 1));
  await store.settle();
  /** Scripts run on each instance while `run` runs. */
  const scripts = async (run: () => Promise<unknown>) => {
    const count = async () =>
      Promise.all(
        servers.map(async (r) => {
          const info = await r.info('commandstats');
          return [...info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce(
            (n, m) => n + Number(m[1]),
            0,
          );
        }),
      );
    const before = await count();
    await run();
    // INFO itself is no script; each instance's count moves only by the store's calls.
    return (await count()).map((n, i) => n - before[i]!);
  };
  // `g` (home 0) at 12 points is on shard 0: the home script writes the entry; two looks a shard.
  t.same(await scripts(() => store.applyWin(win(2, 'g', 12))), [3, 2, 2]);
  t.equal(await servers[0]!.hlen(`${keyPrefix}{2026-11}:lease`), 0, 'no lease taken');
  // `a` (home 1) at 1 point is on shard 2: the apply on 1, the put on 2; the lease still held.
  t.same(await scripts(() => store.applyWin(win(3, 'a', 1))), [2, 3, 3]);
  t.same(await leases(), [[], ['a'], []], 'a written entry’s lease waits for the next home script');
  // `b` (home 1, shard 2) too: its home script gives `a`'s lease back.
  t.same(await scripts(() => store.applyWin(win(4, 'b', 1))), [2, 3, 3]);
  t.same(await leases(), [[], ['b'], []], '`a`’s lease went back with `b`’s home script');
  t.same(await scripts(() => store.settle()), [0, 1, 0], 'settle gives back the rest');
  t.same(await leases(), [[], [], []]);
  t.same(
    (await store.top('2026-11', 0, 10)).map((s) => [s.userId, s.score, s.rank]),
    [
      ['g', 12, 1],
      ['warm', 1, 2],
      ['b', 1, 2],
      ['a', 1, 2],
    ],
  );
});
