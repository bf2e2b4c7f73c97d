/**
 * The shared servers of distributed mode for a test file: JetStream, Redis and Cassandra from
 * @tessera/testkit, with names of the file's own on them (stream, bucket, key prefix, keyspace),
 * removed when the file ends.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { backend, testNamespace } from '@tessera/testkit';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import type { Test } from 'tap';
import { parseCassandraUrl } from '../../src/adapters/cassandra/cassandra-url.ts';

export interface DistributedServers {
  /** The settings that point the leaderboard at the servers, in this file's namespace. */
  readonly env: Readonly<Record<string, string>>;
  readonly natsUrl: string;
  readonly redisUrl: string;
  readonly cassandraUrl: string;
}

export async function distributedServers(t: Test, label: string): Promise<DistributedServers> {
  const [nats, redis, cassandraServer] = await Promise.all([
    backend('nats'),
    backend('redis'),
    backend('cassandra'),
  ]);
  const ns = testNamespace(label);
  const env = {
    NATS_URL: nats.url,
    REDIS_URL: redis.url,
    CASSANDRA_URL: cassandraServer.url,
    LEADERBOARD_STREAM: `${ns}_WINS`,
    LEADERBOARD_STREAM_SUBJECT: `${ns}.wins`,
    LEADERBOARD_MATCH_BUCKET: `${ns}_MATCHES`,
    LEADERBOARD_REDIS_PREFIX: `${ns}:`,
    LEADERBOARD_KEYSPACE: ns.slice(0, 48),
    LEADERBOARD_MIGRATE: 'true',
  };
  // tap runs teardowns last in, first out: the names go while the servers still run.
  t.teardown(() => Promise.all([nats.stop(), redis.stop(), cassandraServer.stop()]));
  t.teardown(() => removeNamespace(env));
  return { env, natsUrl: nats.url, redisUrl: redis.url, cassandraUrl: cassandraServer.url };
}

async function removeNamespace(env: Record<string, string>): Promise<void> {
  const nc = await connect({ servers: env.NATS_URL });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(env.LEADERBOARD_STREAM!).catch(() => false);
  await jsm.streams.delete(`KV_${env.LEADERBOARD_MATCH_BUCKET!}`).catch(() => false);
  await nc.close();
  const redis = new Redis(env.REDIS_URL!);
  const keys = await redis.keys(`${env.LEADERBOARD_REDIS_PREFIX!}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  const { contactPoints, dataCenter } = parseCassandraUrl(env.CASSANDRA_URL!);
  const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
  await client.execute(`DROP KEYSPACE IF EXISTS ${env.LEADERBOARD_KEYSPACE!}`);
  await client.shutdown();
}
