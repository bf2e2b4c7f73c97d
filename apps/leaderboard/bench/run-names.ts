/**
 * The names a benchmark run takes on the shared servers (stream, bucket, key prefix, keyspace),
 * all under one namespace of its own, and their removal once it ends.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import { parseCassandraUrl } from '../src/adapters/cassandra/cassandra-url.ts';

export interface SharedServers {
  readonly NATS_URL: string;
  readonly REDIS_URL: string;
  readonly CASSANDRA_URL: string;
}

/** The api's settings that put its names under `ns`. */
export function namesEnv(ns: string): NodeJS.ProcessEnv {
  return {
    LEADERBOARD_STREAM: `${ns}_WINS`,
    LEADERBOARD_STREAM_SUBJECT: `${ns}.wins`,
    LEADERBOARD_MATCH_BUCKET: `${ns}_MATCHES`,
    LEADERBOARD_REDIS_PREFIX: `${ns}:`,
    LEADERBOARD_KEYSPACE: ns,
  };
}

/** Removes the run's names from the shared servers. */
export async function dropNames(ns: string, servers: SharedServers): Promise<void> {
  const redis = new Redis(servers.REDIS_URL);
  const keys = await redis.keys(`${ns}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  const nc = await connect({ servers: servers.NATS_URL.split(',') });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(`${ns}_WINS`).catch(() => false);
  await jsm.streams.delete(`KV_${ns}_MATCHES`).catch(() => false);
  await nc.close();
  const { contactPoints, dataCenter } = parseCassandraUrl(servers.CASSANDRA_URL);
  const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
  await client.execute(`DROP KEYSPACE IF EXISTS ${ns}`).catch(() => undefined);
  await client.shutdown();
}
