// The `archiver` role as its own process on the shared stores (JetStream, Redis, Cassandra): it
// answers its probes but no API, and archives a finished month that an api process recorded.
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createLogger, readConfig } from '@tessera/kit';
import { backend, launchTessera, tempDir, testNamespace } from '@tessera/testkit';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import t from 'tap';
import { parseCassandraUrl } from '../../src/adapters/cassandra/cassandra-url.ts';
import { openDistributedAdapters } from '../../src/adapters/open-distributed.ts';
import { leaderboardSettings } from '../../src/config.ts';

t.setTimeout(900_000);

const [nats, redisServer, cassandraServer] = await Promise.all([
  backend('nats'),
  backend('redis'),
  backend('cassandra'),
]);
t.teardown(() => Promise.all([nats.stop(), redisServer.stop(), cassandraServer.stop()]));

// This test's own names on the shared servers, removed afterwards.
const ns = testNamespace('archiver');
const env = {
  NATS_URL: nats.url,
  REDIS_URL: redisServer.url,
  CASSANDRA_URL: cassandraServer.url,
  LEADERBOARD_STREAM: `${ns}_WINS`,
  LEADERBOARD_STREAM_SUBJECT: `${ns}.wins`,
  LEADERBOARD_MATCH_BUCKET: `${ns}_MATCHES`,
  LEADERBOARD_REDIS_PREFIX: `${ns}:`,
  LEADERBOARD_KEYSPACE: ns.slice(0, 48),
  LEADERBOARD_MIGRATE: 'true',
};
const config = readConfig(leaderboardSettings, env);
t.teardown(async () => {
  const nc = await connect({ servers: nats.url });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(config.LEADERBOARD_STREAM).catch(() => false);
  await jsm.streams.delete(`KV_${config.LEADERBOARD_MATCH_BUCKET}`).catch(() => false);
  await nc.close();
  const redis = new Redis(redisServer.url);
  const keys = await redis.keys(`${config.LEADERBOARD_REDIS_PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  const { contactPoints, dataCenter } = parseCassandraUrl(cassandraServer.url);
  const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
  await client.execute(`DROP KEYSPACE IF EXISTS ${config.LEADERBOARD_KEYSPACE}`);
  await client.shutdown();
});

t.test('tessera run leaderboard archiver archives a finished month from the shared stores', async (t) => {
  // What an api process left: two wins of a month long finished, recorded and applied.
  const ports = await openDistributedAdapters(config, createLogger({ level: 'silent', name: 'test' }));
  t.teardown(() => ports.close());
  for (const [userId, points] of [
    ['ada', 3],
    ['bob', 5],
  ] as const) {
    const { win } = await ports.winLog.append({
      period: '2020-01',
      userId,
      points,
      at: Date.UTC(2020, 0, 9),
    });
    await ports.rankings.applyWin(win);
  }
  t.notOk(await ports.archive.isArchived('2020-01'));

  const archiver = await launchTessera(['run', 'leaderboard', 'archiver'], {
    env: { ...env, DATA_DIR: tempDir(t), LEADERBOARD_ARCHIVE_INTERVAL_MS: '500' },
  });
  t.teardown(async () => {
    await archiver.stop();
  });
  t.equal((await fetch(`${archiver.url}/healthz`)).status, 200, 'its own probes');
  t.equal((await fetch(`${archiver.url}/v1/scores`)).status, 404, 'but no API');

  // It archived at start, before it listened.
  t.ok(await ports.archive.isArchived('2020-01'), 'the month is archived');
  t.same(await ports.archive.top('2020-01', 0, 10), [
    { userId: 'bob', score: 5, rank: 1 },
    { userId: 'ada', score: 3, rank: 2 },
  ]);
  t.same(await ports.rankings.periods(), [], 'and its live ranking dropped');
  t.equal((await fetch(`${archiver.url}/readyz`)).status, 200);
});
