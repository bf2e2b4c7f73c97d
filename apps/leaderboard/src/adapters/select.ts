/**
 * Which adapters implement the leaderboard's ports, from the settings, here and nowhere else:
 * NATS_URL, REDIS_URL and CASSANDRA_URL (all three) choose the win log on JetStream, the rankings
 * and the profile cache in Redis, profiles and archives in Cassandra, shared by every process of
 * every role; unset, every port is embedded (node:sqlite and memory under DATA_DIR, one process).
 */
import type { Logger, PlatformConfig } from '@tessera/kit';
import type { LeaderboardConfig } from '../config.ts';
import type { LeaderboardPorts } from '../ports.ts';
import { wantsDistributed } from './distributed-settings.ts';
import { openEmbeddedAdapters } from './embedded/open-embedded.ts';
import { openDistributedAdapters } from './open-distributed.ts';

export function selectAdapters(
  config: LeaderboardConfig,
  platform: PlatformConfig,
  logger: Logger,
): Promise<LeaderboardPorts> {
  if (wantsDistributed(config)) return openDistributedAdapters(config, logger);
  return Promise.resolve(
    openEmbeddedAdapters({
      dataDir: platform.DATA_DIR,
      tieBreak: config.LEADERBOARD_TIE_BREAK,
      fsync: platform.DATA_FSYNC,
      logger,
      checkpointIntervalMs: config.LEADERBOARD_CHECKPOINT_INTERVAL_MS,
      profileCacheSize: config.LEADERBOARD_PROFILE_CACHE_SIZE,
    }),
  );
}
