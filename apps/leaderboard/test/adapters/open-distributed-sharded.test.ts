// LEADERBOARD_REDIS_SHARDS through openDistributedAdapters: the rankings on Redis instances of the
// test's own, split by score range, shared by two processes; REDIS_URL keeps the profile cache.
import { createLogger, readConfig } from '@tessera/kit';
import t from 'tap';
import { distributedSettings } from '../../src/adapters/distributed-settings.ts';
import { openDistributedAdapters, type DistributedConfig } from '../../src/adapters/open-distributed.ts';
import { win } from '../ports/ranking-store.suite.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { startRedisServers } from './redis/redis-servers.ts';

t.setTimeout(900_000);

const servers = await distributedServers(t, 'open_sharded');
const shards = await startRedisServers(t, 2);
const config: DistributedConfig = {
  ...readConfig(distributedSettings, {
    ...servers.env,
    LEADERBOARD_REDIS_SHARDS: shards.map((r) => `redis://127.0.0.1:${r.options.port}`).join(','),
    LEADERBOARD_REBALANCE_MS: '0',
  }),
  LEADERBOARD_TIE_BREAK: 'earliest',
};
const logger = createLogger({ level: 'silent', name: 'test' });

t.test('two processes rank on the shards: what one applies the other reads', async (t) => {
  const one = await openDistributedAdapters(config, logger);
  t.teardown(() => one.close());
  const two = await openDistributedAdapters({ ...config, LEADERBOARD_MIGRATE: false }, logger);
  t.teardown(() => two.close());
  await one.rankings.applyBatch(Array.from({ length: 10 }, (_, i) => win(i + 1, `u${i}`, 10 - i)));
  t.same(await two.rankings.standing('2026-11', 'u3'), { userId: 'u3', score: 7, rank: 4 });
  const counts = await Promise.all(shards.map((r) => r.keys(`${config.LEADERBOARD_REDIS_PREFIX}*:rank`)));
  t.equal(counts.flat().length, 1, 'no bounds yet: one sorted set, on the top shard');
  t.same(await two.rankings.applyWin(win(11, 'u9', 20)), { userId: 'u9', score: 21, rank: 1 });
  t.same(
    (await one.rankings.top('2026-11', 0, 3)).map((s) => s.userId),
    ['u9', 'u0', 'u1'],
  );
});
