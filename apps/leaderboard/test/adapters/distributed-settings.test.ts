import { ConfigError, readConfig } from '@tessera/kit';
import t from 'tap';
import {
  distributedServers,
  distributedSettings,
  wantsDistributed,
} from '../../src/adapters/distributed-settings.ts';

t.test('defaults: embedded (no server), the names of the spec', async (t) => {
  const config = readConfig(distributedSettings, {});
  t.equal(wantsDistributed(config), false);
  t.match(config, {
    LEADERBOARD_STREAM: 'LB_WINS',
    LEADERBOARD_STREAM_SUBJECT: 'lb.wins',
    LEADERBOARD_MATCH_BUCKET: 'LB_MATCHES',
    LEADERBOARD_STREAM_REPLICAS: 1,
    LEADERBOARD_MATCH_ID_TTL_DAYS: 0,
    LEADERBOARD_MIGRATE: false,
  });
});

t.test('the three servers together select the distributed adapters', async (t) => {
  const config = readConfig(distributedSettings, {
    NATS_URL: 'nats://127.0.0.1:14222',
    REDIS_URL: 'redis://127.0.0.1:16379',
    CASSANDRA_URL: 'cassandra://127.0.0.1:19042,127.0.0.2:19042/datacenter1',
  });
  t.equal(wantsDistributed(config), true);
  t.same(distributedServers(config), {
    natsUrl: 'nats://127.0.0.1:14222',
    redisUrl: 'redis://127.0.0.1:16379',
    cassandraUrl: 'cassandra://127.0.0.1:19042,127.0.0.2:19042/datacenter1',
  });
});

t.test('half a distributed setup is refused, naming what is missing', async (t) => {
  const config = readConfig(distributedSettings, { REDIS_URL: 'redis://127.0.0.1:16379' });
  t.equal(wantsDistributed(config), true);
  t.throws(() => distributedServers(config), {
    name: 'ConfigError',
    message: /NATS_URL, CASSANDRA_URL must be set too/,
  });
});

t.test('malformed values are refused, all at once', async (t) => {
  let message = '';
  try {
    readConfig(distributedSettings, {
      NATS_URL: 'http://127.0.0.1:4222',
      CASSANDRA_URL: 'cassandra://127.0.0.1:9042',
      LEADERBOARD_STREAM: 'LB WINS',
      LEADERBOARD_STREAM_REPLICAS: '7',
      LEADERBOARD_KEYSPACE: 'Tessera-LB',
    });
  } catch (error) {
    t.type(error, ConfigError);
    message = (error as Error).message;
  }
  for (const name of [
    'NATS_URL',
    'CASSANDRA_URL',
    'LEADERBOARD_STREAM ',
    'LEADERBOARD_STREAM_REPLICAS',
    'LEADERBOARD_KEYSPACE',
  ]) {
    t.match(message, name, `${name.trim()} named`);
  }
});

t.test('LEADERBOARD_REDIS_SHARDS: a list of Redis URLs, unset by default', async (t) => {
  t.equal(readConfig(distributedSettings, {}).LEADERBOARD_REDIS_SHARDS, undefined);
  t.equal(readConfig(distributedSettings, {}).LEADERBOARD_REBALANCE_MS, 60_000);
  const config = readConfig(distributedSettings, {
    LEADERBOARD_REDIS_SHARDS: 'redis://127.0.0.1:16380,redis://127.0.0.1:16381/2',
  });
  t.equal(config.LEADERBOARD_REDIS_SHARDS, 'redis://127.0.0.1:16380,redis://127.0.0.1:16381/2');
  t.throws(() => readConfig(distributedSettings, { LEADERBOARD_REDIS_SHARDS: 'redis://a:1,,redis://b:2' }), {
    name: 'ConfigError',
  });
});
