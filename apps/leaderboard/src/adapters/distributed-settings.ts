import { ConfigError, setting, type ConfigOf } from '@tessera/kit';

const STREAM_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The settings of the distributed adapters (JetStream, Redis, Cassandra), to be merged into the
 * leaderboard's settings table; see docs/leaderboard.md. The three URLs together select them.
 */
export const distributedSettings = {
  NATS_URL: setting.optionalString({
    pattern: /^nats:\/\/[^\s,]+(,nats:\/\/[^\s,]+)*$/,
    description: 'NATS with JetStream, nats://host:port[,nats://…]: the win log',
  }),
  REDIS_URL: setting.optionalString({
    pattern: /^rediss?:\/\/\S+$/,
    description: 'Redis, redis://[user:password@]host:port[/db]: the live rankings and the profile cache',
  }),
  CASSANDRA_URL: setting.optionalString({
    pattern: /^cassandra:\/\/[^/\s]+\/[^/\s]+$/,
    description: 'Cassandra, cassandra://host:port[,host:port…]/datacenter: profiles and archives',
  }),
  LEADERBOARD_STREAM: setting.string({
    default: 'LB_WINS',
    pattern: STREAM_NAME,
    description: 'JetStream stream of the win log',
  }),
  LEADERBOARD_STREAM_SUBJECT: setting.string({
    default: 'lb.wins',
    pattern: /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/,
    description: 'the wins of a month go to <this>.<YYYY-MM>',
  }),
  LEADERBOARD_STREAM_REPLICAS: setting.int({
    default: 1,
    min: 1,
    max: 5,
    description: 'copies JetStream keeps of the win log and the match ids',
  }),
  LEADERBOARD_MATCH_BUCKET: setting.string({
    default: 'LB_MATCHES',
    pattern: STREAM_NAME,
    description: 'JetStream KV bucket remembering match ids beyond the de-duplication window',
  }),
  LEADERBOARD_DEDUP_WINDOW_MS: setting.int({
    default: 120_000,
    min: 1_000,
    description: 'JetStream de-duplication window of a new stream (an existing stream keeps its own)',
  }),
  LEADERBOARD_MATCH_ID_TTL_DAYS: setting.int({
    default: 0,
    min: 0,
    description: 'how long a match id is remembered (0: for ever, about 150 bytes per win)',
  }),
  LEADERBOARD_REDIS_SHARDS: setting.optionalString({
    pattern: /^rediss?:\/\/[^\s,]+(,rediss?:\/\/[^\s,]+)*$/,
    description:
      'the live rankings split by score range over these Redis instances, redis://…[,redis://…], the first holding the highest scores (unset: on REDIS_URL alone); see docs/architecture.md',
  }),
  LEADERBOARD_REBALANCE_MS: setting.int({
    default: 60_000,
    min: 0,
    description:
      'with LEADERBOARD_REDIS_SHARDS, how often each process moves the shard bounds of the current month to even shares (0: never)',
  }),
  LEADERBOARD_REDIS_PREFIX: setting.string({
    default: 'lb:',
    description: 'prefix of every Redis key of the leaderboard',
  }),
  LEADERBOARD_PROFILE_CACHE_TTL_MS: setting.int({
    default: 300_000,
    min: 1_000,
    description: 'how long a profile stays in the Redis cache (an update invalidates it at once)',
  }),
  LEADERBOARD_KEYSPACE: setting.string({
    default: 'tessera_leaderboard',
    pattern: /^[a-z][a-z0-9_]{0,47}$/,
    description: 'Cassandra keyspace of profiles and archives',
  }),
  LEADERBOARD_CASSANDRA_REPLICATION: setting.int({
    default: 1,
    min: 1,
    max: 9,
    description: 'replication factor of a new keyspace, in the data center of CASSANDRA_URL',
  }),
  LEADERBOARD_MIGRATE: setting.bool({
    default: false,
    description:
      'apply the Cassandra schema at start (idempotent; `tessera leaderboard migrate` does it alone)',
  }),
};

export type DistributedSettings = ConfigOf<typeof distributedSettings>;

/** The three servers, once checked to be all given. */
export interface DistributedServers {
  readonly natsUrl: string;
  readonly redisUrl: string;
  readonly cassandraUrl: string;
}

/** True when any server URL is given: then all three must be (see `distributedServers`). */
export function wantsDistributed(config: DistributedSettings): boolean {
  return (
    config.NATS_URL !== undefined || config.REDIS_URL !== undefined || config.CASSANDRA_URL !== undefined
  );
}

/** The three URLs, or a ConfigError naming the missing ones: half a distributed setup is a mistake. */
export function distributedServers(config: DistributedSettings): DistributedServers {
  const { NATS_URL: natsUrl, REDIS_URL: redisUrl, CASSANDRA_URL: cassandraUrl } = config;
  if (natsUrl !== undefined && redisUrl !== undefined && cassandraUrl !== undefined) {
    return { natsUrl, redisUrl, cassandraUrl };
  }
  const missing = Object.entries({ NATS_URL: natsUrl, REDIS_URL: redisUrl, CASSANDRA_URL: cassandraUrl })
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  throw new ConfigError(
    `Invalid configuration:\n  ${missing.join(', ')} must be set too: the distributed leaderboard needs NATS_URL, REDIS_URL and CASSANDRA_URL`,
  );
}
