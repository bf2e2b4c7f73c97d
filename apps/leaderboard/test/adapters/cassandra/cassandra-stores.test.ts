import { randomBytes } from 'node:crypto';
import { backend } from '@tessera/testkit';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import t from 'tap';
import { CassandraArchiveStore } from '../../../src/adapters/cassandra/cassandra-archive-store.ts';
import { CassandraProfileStore } from '../../../src/adapters/cassandra/cassandra-profile-store.ts';
import { parseCassandraUrl } from '../../../src/adapters/cassandra/cassandra-url.ts';
import { migrateLeaderboard } from '../../../src/adapters/cassandra/schema.ts';
import { RedisProfileCache } from '../../../src/adapters/redis/redis-profile-cache.ts';
import { archiveStoreSuite } from '../../ports/archive-store.suite.ts';
import { profileStoreSuite } from '../../ports/profile-store.suite.ts';

t.setTimeout(900_000); // a cold machine fetches Cassandra first, and it starts in ~30 s

const [server, redisServer] = await Promise.all([backend('cassandra'), backend('redis')]);
t.teardown(() => Promise.all([server.stop(), redisServer.stop()]));
const { contactPoints, dataCenter } = parseCassandraUrl(server.url);
const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
await client.connect();
t.teardown(() => client.shutdown());
const redis = new Redis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
t.teardown(() => redis.quit());

/**
 * Keyspaces of this file's own with the schema applied (the server may be shared), dropped at the
 * end. The port suites keep their tests apart by period and user id, so each suite needs one
 * keyspace, not one per test: creating one takes seconds of schema changes.
 */
const [archiveKeyspace, profileKeyspace, cachedKeyspace] = (await Promise.all(
  [1, 2, 3].map(async () => {
    const keyspace = `lb_test_${randomBytes(4).toString('hex')}`;
    t.teardown(() => client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`));
    await migrateLeaderboard(client, { keyspace, dataCenter, replicationFactor: 1 });
    return keyspace;
  }),
)) as [string, string, string];

t.test('migrate is idempotent', async (t) => {
  const keyspace = archiveKeyspace;
  await migrateLeaderboard(client, { keyspace, dataCenter, replicationFactor: 1 });
  const tables = await client.execute(
    'SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?',
    [keyspace],
    { prepare: true },
  );
  t.same(tables.rows.map((row) => String(row.get('table_name'))).sort(), [
    'leaderboard_archive',
    'leaderboard_archive_by_user',
    'leaderboard_archive_periods',
    'profiles',
  ]);
});

t.test('the ArchiveStore port suite, on Cassandra (partitions of 4 players)', async (t) => {
  archiveStoreSuite(
    t,
    async () => new CassandraArchiveStore(client, { keyspace: archiveKeyspace, bucketSize: 4 }),
  );
});

t.test('the ProfileStore port suite, on Cassandra', async (t) => {
  profileStoreSuite(t, async () => new CassandraProfileStore(client, profileKeyspace));
});

t.test('the ProfileStore port suite, on Cassandra behind the Redis cache', async (t) => {
  profileStoreSuite(t, async (t) => {
    const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
    t.teardown(async () => {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    });
    const inner = new CassandraProfileStore(client, cachedKeyspace);
    return new RedisProfileCache(inner, redis, { keyPrefix, ttlMs: 60_000 });
  });
});

t.test('an archive of several partitions is written and read whole', async (t) => {
  const archive = new CassandraArchiveStore(client, { keyspace: archiveKeyspace, bucketSize: 1_000 });
  const standings = Array.from({ length: 3_500 }, (_, i) => ({
    userId: `u${i}`,
    score: 5_000 - i,
    rank: i + 1,
  }));
  async function* batches() {
    for (let i = 0; i < standings.length; i += 1_000) yield standings.slice(i, i + 1_000);
  }
  t.equal(await archive.write('2025-10', batches()), 3_500);
  t.same(
    await archive.top('2025-10', 990, 20),
    standings.slice(990, 1_010),
    'a page across a partition boundary',
  );
  t.same(await archive.around('2025-10', 'u3000', 4), standings.slice(2_996, 3_005));
  t.same(await archive.standing('2025-10', 'u3499'), standings[3_499]);
});
