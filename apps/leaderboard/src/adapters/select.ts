/**
 * Which adapters implement the leaderboard's ports, from the settings, here and nowhere else:
 * NATS_URL, REDIS_URL and CASSANDRA_URL (all three) choose the win log on JetStream, the rankings
 * and the profile cache in Redis, profiles and archives in Cassandra, shared by every process of
 * every role; unset, every port is embedded (node:sqlite and memory under DATA_DIR, one process).
 * The distributed adapters and their clients are imported only when chosen: an embedded process
 * would otherwise carry their modules in its heap and mark them in every full collection.
 */
import type { Logger, PlatformConfig } from '@tessera/kit';
import type { LeaderboardConfig } from '../config.ts';
import type { LeaderboardPorts } from '../ports.ts';
import { parseCassandraUrl } from './cassandra/cassandra-url.ts';
import { distributedServers, wantsDistributed } from './distributed-settings.ts';
import { openEmbeddedAdapters } from './embedded/open-embedded.ts';

export async function selectAdapters(
  config: LeaderboardConfig,
  platform: PlatformConfig,
  logger: Logger,
): Promise<LeaderboardPorts> {
  if (wantsDistributed(config)) {
    const { openDistributedAdapters } = await import('./open-distributed.ts');
    return openDistributedAdapters(config, logger);
  }
  return openEmbeddedAdapters({
    dataDir: platform.DATA_DIR,
    tieBreak: config.LEADERBOARD_TIE_BREAK,
    fsync: platform.DATA_FSYNC,
    logger,
    checkpointIntervalMs: config.LEADERBOARD_CHECKPOINT_INTERVAL_MS,
    profileCacheSize: config.LEADERBOARD_PROFILE_CACHE_SIZE,
  });
}

/**
 * Applies the stores' schemas (`tessera leaderboard migrate`): the Cassandra keyspace and tables
 * in distributed mode; the embedded stores create theirs when they open, so there it is nothing.
 * Resolves to what was migrated, for the command to say.
 */
export async function migrateAdapters(config: LeaderboardConfig): Promise<string> {
  if (!wantsDistributed(config))
    return 'nothing to migrate: the embedded stores create their tables when they open';
  const { cassandraUrl } = distributedServers(config);
  const { contactPoints, dataCenter } = parseCassandraUrl(cassandraUrl);
  const [{ default: cassandra }, { migrateLeaderboard }] = await Promise.all([
    import('cassandra-driver'),
    import('./cassandra/schema.ts'),
  ]);
  const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
  try {
    await migrateLeaderboard(client, {
      keyspace: config.LEADERBOARD_KEYSPACE,
      dataCenter,
      replicationFactor: config.LEADERBOARD_CASSANDRA_REPLICATION,
    });
    return `Cassandra keyspace ${config.LEADERBOARD_KEYSPACE} at ${cassandraUrl} is up to date`;
  } finally {
    await client.shutdown();
  }
}
