import { randomBytes } from 'node:crypto';
import { createLogger } from '@tessera/kit';
import { pollUntil } from '@tessera/testkit';
import t from 'tap';
import { openShardedRanking } from '../../../src/adapters/redis/open-sharded-ranking.ts';
import { homeShard } from '../../../src/adapters/redis/shard-layout.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';

const servers = await startRedisServers(t, 2);

/** The ranking over both servers, under a key prefix of its own. */
async function openStore(rebalanceMs: number) {
  const urls = servers.map((r) => `redis://127.0.0.1:${r.options.port}`).join(',');
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const store = await openShardedRanking(urls, {
    tieBreak: 'shared',
    keyPrefix,
    rebalanceMs,
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  return { store, keyPrefix };
}

/** Reads until `done` holds, 20 ms apart; 30 s is a guard, and its failure shows the last reading. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  await pollUntil('the reading to settle', async () => done(value) || done((value = await read())), {
    ms: 30_000,
    intervalMs: 20,
    describe: () => Promise.resolve(`last reading: ${JSON.stringify(value)}`),
  });
  return value;
}

t.test('opens the shards from their URLs and rebalances the newest period on a timer', async (t) => {
  const { store, keyPrefix } = await openStore(50);
  await store.applyBatch(Array.from({ length: 20 }, (_, i) => win(i + 1, `u${i}`, i + 1)));
  // No bounds at first: all on the top shard, until the timer rebalances (a move adds on the new
  // shard before it removes from the old: wait for both).
  const sizes = () => Promise.all(servers.map((r) => r.zcard(`${keyPrefix}{2026-11}:rank`)));
  const seen = await until(sizes, (n) => n[0] === 10 && n[1] === 10);
  t.same(seen, [10, 10], 'the lower half moved to the second shard');
  t.same(
    (await store.top('2026-11', 9, 2)).map((s) => s.rank),
    [10, 11],
  );
  await store.close();
  t.equal(await servers[0]!.ping(), 'PONG', 'the servers are not the store’s to stop');
});

t.test('the timer also rewrites an entry a dead lease holder left stale', async (t) => {
  const { store, keyPrefix } = await openStore(50);
  t.teardown(() => store.close());
  await store.applyBatch(Array.from({ length: 6 }, (_, i) => win(i + 1, `u${i}`, 10 * (i + 1))));
  // What a process killed after taking u5's lease and before writing its entry leaves: a lease
  // past its expiry on the home, and an entry older than the total.
  const key = (part: string) => `${keyPrefix}{2026-11}:${part}`;
  await servers[homeShard('u5', servers.length)]!.hset(key('lease'), 'u5', '1:1');
  const holding = await Promise.all(servers.map((r) => r.zscore(key('rank'), 'u5')));
  // Still in its shard's range and still first: nothing but the lapsed lease says it is stale.
  await servers[holding.findIndex((s) => s !== null)]!.zadd(key('rank'), 55, 'u5');
  const seen = await until(
    () => store.standing('2026-11', 'u5'),
    (s) => s?.score === 60,
  );
  t.same(seen, { userId: 'u5', score: 60, rank: 1 }, 'rewritten from the total');
  // The rewrite's lease goes back with the next home script or a moment later (the store's
  // deferred releases): wait for it as for the rewrite.
  const held = await until(
    () => Promise.all(servers.map((r) => r.hlen(key('lease')))),
    (n) => n.every((leases) => leases === 0),
  );
  t.same(held, [0, 0], 'the lease given back');
});

t.test("a batch one home fails still places the other home's wins at once", async (t) => {
  const { store, keyPrefix } = await openStore(60_000);
  t.teardown(() => store.close());
  const users = Array.from({ length: 40 }, (_, i) => `p${i}`);
  // Every entry is on the first instance (no bounds yet): a win homed on the second is placed
  // there by the store, after its home script.
  const fine = users.find((u) => homeShard(u, servers.length) === 1)!;
  const failing = users.find((u) => homeShard(u, servers.length) === 0)!;
  await store.applyBatch([win(1, fine, 5), win(2, failing, 1)]);
  // Home 0's script fails: its record of applied wins is not the sorted set the script expects.
  const applied = `${keyPrefix}{2026-11}:applied`;
  await servers[0]!.del(applied);
  await servers[0]!.set(applied, 'not a sorted set');
  await t.rejects(store.applyBatch([win(3, fine, 7), win(4, failing, 2)]), /WRONGTYPE/);
  // Its entry in the ranking, as the batch left it (no read has run to take anything over).
  const entries = await Promise.all(servers.map((r) => r.zscore(`${keyPrefix}{2026-11}:rank`, fine)));
  t.same(
    entries.filter((e) => e !== null),
    ['12'],
    "the applied home's win placed at once",
  );
  t.same(await store.standing('2026-11', fine), { userId: fine, score: 12, rank: 1 }, 'read as applied');
  t.same(await store.standing('2026-11', failing), { userId: failing, score: 1, rank: 2 }, 'as it was');
});
