import type { Logger } from '@tessera/kit';
import { connect } from '@nats-io/transport-node';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import type { TieBreak } from '../core/standing.ts';
import { DependencyHealth } from '../dependency-health.ts';
import type { LeaderboardPorts } from '../ports.ts';
import { CassandraArchiveStore } from './cassandra/cassandra-archive-store.ts';
import { CassandraProfileStore } from './cassandra/cassandra-profile-store.ts';
import { parseCassandraUrl } from './cassandra/cassandra-url.ts';
import { migrateLeaderboard } from './cassandra/schema.ts';
import { distributedServers, type DistributedSettings } from './distributed-settings.ts';
import { guardOutages } from './outage-guard.ts';
import { isCassandraOutage, isNatsOutage, isRedisOutage } from './outages.ts';
import { NatsConnectionWatch } from './nats/connection-watch.ts';
import { openJetStreamWinLog } from './nats/jetstream-win-log.ts';
import { RedisProfileCache } from './redis/redis-profile-cache.ts';
import { RedisRankingStore } from './redis/redis-ranking-store.ts';
import { openShardedRanking } from './redis/open-sharded-ranking.ts';

export type DistributedConfig = DistributedSettings & { readonly LEADERBOARD_TIE_BREAK: TieBreak };

const DAY_MS = 86_400_000;
/** A period no archive holds: what a readiness probe asks Cassandra while it was found down. */
const PROBE_PERIOD = '1970-01';

/**
 * The ports over the shared servers: the win log on JetStream, the rankings and the profile cache
 * in Redis, profiles and archives in Cassandra. Every process of every role opens the same, so
 * the roles may run apart (`shared: true`).
 *
 * Cassandra is connected on first use, so the api starts (and keeps recording wins) while it is
 * down, unless the schema is to be applied first (LEADERBOARD_MIGRATE). While it is down, profile
 * and archive calls fail as LB_STORE_UNAVAILABLE (names fall back to ids, archiving waits) and
 * `degraded()` says so, for readiness.
 */
export async function openDistributedAdapters(
  config: DistributedConfig,
  logger: Logger,
): Promise<LeaderboardPorts> {
  const servers = distributedServers(config);
  const closers: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) =>
        logger.warn({ err: error }, 'closing a distributed adapter failed'),
      );
    }
  };
  try {
    // A service reconnects for as long as it runs (the client's default gives up after ten tries).
    // No async traces: they build two Errors (stack and all) for every request, so for every
    // JetStream publish of a win, to tell where a timeout came from; our spans and logs say that.
    const nc = await connect({
      servers: servers.natsUrl.split(','),
      name: 'tessera-leaderboard',
      maxReconnectAttempts: -1,
      noAsyncTraces: true,
    });
    closers.push(() => nc.drain());
    const health = new DependencyHealth();
    const connection = new NatsConnectionWatch(nc.status(), {
      onChange: (down) => (down === undefined ? health.up('nats') : health.down('nats', down)),
    });

    const redis = new Redis(servers.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    redis.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
    await redis.connect();
    closers.push(() => redis.quit());

    const { contactPoints, dataCenter } = parseCassandraUrl(servers.cassandraUrl);
    const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
    closers.push(() => client.shutdown());
    if (config.LEADERBOARD_MIGRATE) {
      await migrateLeaderboard(client, {
        keyspace: config.LEADERBOARD_KEYSPACE,
        dataCenter,
        replicationFactor: config.LEADERBOARD_CASSANDRA_REPLICATION,
      });
    }

    const jetStreamWinLog = await openJetStreamWinLog(nc, {
      stream: config.LEADERBOARD_STREAM,
      subjectPrefix: config.LEADERBOARD_STREAM_SUBJECT,
      matchBucket: config.LEADERBOARD_MATCH_BUCKET,
      replicas: config.LEADERBOARD_STREAM_REPLICAS,
      duplicateWindowMs: config.LEADERBOARD_DEDUP_WINDOW_MS,
      matchIdTtlMs: config.LEADERBOARD_MATCH_ID_TTL_DAYS * DAY_MS,
      connection,
    });
    closers.push(() => jetStreamWinLog.close());

    // While NATS reconnects, an append fails at once as a coded 503 the client retries (same
    // match_id), instead of waiting in the client for the connection to come back.
    const winLog = guardOutages(jetStreamWinLog, {
      dependency: 'nats',
      health,
      isOutage: isNatsOutage,
      retryAfterSeconds: 2,
    });
    const rankingOptions = {
      tieBreak: config.LEADERBOARD_TIE_BREAK,
      keyPrefix: config.LEADERBOARD_REDIS_PREFIX,
    };
    let redisRankings: LeaderboardPorts['rankings'] = new RedisRankingStore(redis, rankingOptions);
    if (config.LEADERBOARD_REDIS_SHARDS !== undefined) {
      const sharded = await openShardedRanking(config.LEADERBOARD_REDIS_SHARDS, {
        ...rankingOptions,
        rebalanceMs: config.LEADERBOARD_REBALANCE_MS,
        logger,
      });
      closers.push(() => sharded.close());
      redisRankings = sharded;
    }
    const rankings = guardOutages(redisRankings, {
      dependency: 'redis',
      health,
      isOutage: isRedisOutage,
      retryAfterSeconds: 1,
    });
    const guard = { dependency: 'cassandra', health, isOutage: isCassandraOutage, retryAfterSeconds: 5 };
    const archive = guardOutages(
      new CassandraArchiveStore(client, { keyspace: config.LEADERBOARD_KEYSPACE }),
      guard,
    );
    // The cache in front stays usable: a cached name is shown while Cassandra is down.
    const profiles = new RedisProfileCache(
      guardOutages(new CassandraProfileStore(client, config.LEADERBOARD_KEYSPACE), guard),
      redis,
      {
        keyPrefix: config.LEADERBOARD_REDIS_PREFIX,
        ttlMs: config.LEADERBOARD_PROFILE_CACHE_TTL_MS,
      },
    );
    logger.info(
      { nats: servers.natsUrl, redis: redactPassword(servers.redisUrl), cassandra: servers.cassandraUrl },
      'leaderboard adapters: JetStream, Redis, Cassandra',
    );
    return {
      winLog,
      rankings,
      archive,
      profiles,
      stats: { profileCacheHits: () => profiles.hits },
      shared: true,
      async degraded() {
        // Recovery shows without traffic: what was down is asked again (a failed probe only
        // refreshes why).
        if (health.isDown('cassandra')) await archive.isArchived(PROBE_PERIOD).catch(() => false);
        // (Not while the client reconnects: the probe would wait in it; the watch says when it is back.)
        if (health.isDown('nats') && connection.down() === undefined) await winLog.periods().catch(() => []);
        if (health.isDown('redis')) await rankings.periods().catch(() => []);
        return health.describe();
      },
      // Nothing to save: every store is durable on its own server.
      checkpoint: () => Promise.resolve(),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
