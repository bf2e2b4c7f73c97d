import { Redis } from 'ioredis';
import t from 'tap';
import { backend } from '../src/backends.ts';

t.setTimeout(600_000); // a cold machine installs the server first

t.test('Redis answers sorted-set commands (the leaderboard ranking of distributed mode)', async (t) => {
  const server = await backend('redis');
  t.teardown(() => server.stop());
  const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  t.teardown(() => redis.quit());
  await redis.del('lb:2026-11');
  await redis.zincrby('lb:2026-11', 5, 'alice');
  await redis.zincrby('lb:2026-11', 7, 'bob');
  await redis.zincrby('lb:2026-11', 3, 'alice');
  t.equal(await redis.zscore('lb:2026-11', 'alice'), '8');
  t.equal(await redis.zrevrank('lb:2026-11', 'alice'), 0, 'alice leads with 8');
  t.equal(await redis.zrevrank('lb:2026-11', 'bob'), 1);
  t.same(await redis.zrevrange('lb:2026-11', 0, 9, 'WITHSCORES'), ['alice', '8', 'bob', '7']);
});
