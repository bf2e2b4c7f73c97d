/**
 * Which adapters implement the leaderboard's ports, from the settings. Today every port is
 * embedded (node:sqlite and memory under DATA_DIR); NATS_URL, REDIS_URL and CASSANDRA_URL will
 * choose JetStream, Redis and Cassandra here, and nowhere else.
 */
import type { Logger, PlatformConfig } from '@tessera/kit';
import type { LeaderboardConfig } from '../config.ts';
import type { LeaderboardPorts } from '../ports.ts';
import { openEmbeddedAdapters } from './embedded/open-embedded.ts';

export function selectAdapters(
  config: LeaderboardConfig,
  platform: PlatformConfig,
  logger: Logger,
): Promise<LeaderboardPorts> {
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
