import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import type { Logger } from '@tessera/kit';
import { openEmbeddedLeaderboard, type EmbeddedLeaderboard } from './adapters/embedded/open-embedded.ts';
import type { LeaderboardConfig } from './config.ts';
import { periodClock } from './core/period.ts';
import { leaderboardRoutes } from './http/routes.ts';

export interface MountOptions {
  readonly config: LeaderboardConfig;
  readonly dataDir: string;
  readonly logger: Logger;
  /** The clock (epoch ms); tests move it across a month's end. */
  readonly now?: () => number;
}

export interface MountedLeaderboard {
  readonly embedded: EmbeddedLeaderboard;
  /** Flushes and closes the stores; also runs when the app closes. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the leaderboard's stores (recovering the rankings) and adds its routes, readiness check
 * and metrics to an app made by the kit's `createHttpApp`. Used by the leaderboard's own `api`
 * role and by the all-in-one embedded runner.
 */
export async function mountLeaderboard(
  app: FastifyInstance,
  options: MountOptions,
): Promise<MountedLeaderboard> {
  const { config } = options;
  const logger = options.logger.child({ service: 'leaderboard' });
  const embedded = await openEmbeddedLeaderboard({
    dataDir: options.dataDir,
    tieBreak: config.LEADERBOARD_TIE_BREAK,
    fsync: config.DATA_FSYNC,
    now: options.now ?? Date.now,
    periodOf: periodClock(config.LEADERBOARD_TIMEZONE),
    logger,
    checkpointIntervalMs: config.LEADERBOARD_CHECKPOINT_INTERVAL_MS,
    archiveIntervalMs: config.LEADERBOARD_ARCHIVE_INTERVAL_MS,
    profileCacheSize: config.LEADERBOARD_PROFILE_CACHE_SIZE,
  });
  let open = true;
  app.addReadinessCheck('leaderboard', () => open);
  registerMetrics(app, embedded);
  await app.register(leaderboardRoutes, {
    service: embedded.service,
    maxPoints: config.LEADERBOARD_MAX_POINTS,
    writeLimitPerMinute: config.LEADERBOARD_WRITE_LIMIT_PER_MINUTE,
    readLimitPerMinute: config.LEADERBOARD_READ_LIMIT_PER_MINUTE,
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      open = false;
      await embedded.close();
    })();
    return closing;
  };
  // The app closes after it stopped taking requests: then the stores flush and close.
  app.addHook('onClose', close);
  return { embedded, close };
}

function registerMetrics(app: FastifyInstance, embedded: EmbeddedLeaderboard): void {
  const registers = [app.metrics];
  new Gauge({
    name: 'leaderboard_players',
    help: 'Players with a score in the live rankings',
    registers,
    collect() {
      this.set(embedded.rankings.stats().players);
    },
  });
  new Gauge({
    name: 'leaderboard_ranking_bytes',
    help: 'Bytes held by the live rankings',
    registers,
    collect() {
      this.set(embedded.rankings.stats().bytes);
    },
  });
  new Gauge({
    name: 'leaderboard_profile_cache_hits',
    help: 'Profile lookups answered by the cache since start',
    registers,
    collect() {
      this.set(embedded.profiles.stats.hits);
    },
  });
}
