/**
 * The leaderboard as the platform runs it: its settings, errors, routes, roles and readiness in
 * one descriptor, and the composition root that opens it (adapters chosen by `adapters/select.ts`,
 * the ranking caught up with the win log, the use cases wired).
 */
import { defineService, type ServiceContext, type ServiceDescriptor } from '@tessera/kit';
import { selectAdapters } from './adapters/select.ts';
import { catchUp } from './catch-up.ts';
import { checkLeaderboardConfig, leaderboardSettings, type LeaderboardConfig } from './config.ts';
import { periodClock, type Period } from './core/period.ts';
import { leaderboardErrors } from './errors.ts';
import { leaderboardRoutes } from './http/routes.ts';
import type { LeaderboardInstance } from './instance.ts';
import { registerLeaderboardMetrics } from './metrics.ts';
import { RankingGate } from './ranking-gate.ts';
import { apiRole } from './roles/api.ts';
import { archiverRole } from './roles/archiver.ts';
import { archiveFinishedPeriods } from './rollover.ts';
import { LeaderboardService } from './service.ts';

async function openLeaderboard(
  config: LeaderboardConfig,
  context: ServiceContext,
): Promise<LeaderboardInstance> {
  const { logger } = context;
  const ports = await selectAdapters(config, context.platform, logger);
  try {
    // Ready only once the ranking holds every win of the log.
    await catchUp(ports, logger);
  } catch (error) {
    await ports.close();
    throw error;
  }
  const periodOf = periodClock(config.LEADERBOARD_TIMEZONE, config.LEADERBOARD_PERIOD);
  const rankingGate = new RankingGate();
  const service = new LeaderboardService({
    ports: { ...ports, rankings: rankingGate.guard(ports.rankings) },
    now: context.now,
    periodOf,
    cacheTopList: !ports.shared,
    onDegraded: (store, error) =>
      logger.warn({ err: error, store }, `${store} unavailable: answering without it`),
  });
  let open = true;
  let archiving: Promise<unknown> = Promise.resolve();
  const archiveNow = (): Promise<Period[]> => {
    const run = archiving.then(() =>
      archiveFinishedPeriods({
        ...ports,
        // A win of the last period may still be in flight: that period waits out the grace.
        currentPeriod: periodOf(context.now() - config.LEADERBOARD_ARCHIVE_GRACE_MS),
        logger,
      }),
    );
    archiving = run.catch(() => undefined);
    return run;
  };
  return {
    config,
    service,
    ports,
    rankingGate,
    logger,
    archiveNow,
    isOpen: () => open,
    async close() {
      open = false;
      await archiving;
      await ports.close();
    },
  };
}

export const leaderboardDescriptor: ServiceDescriptor<typeof leaderboardSettings, LeaderboardInstance> = {
  name: 'leaderboard',
  description: 'Game leaderboard: rankings of players by wins, per month (or week, or day)',
  settings: leaderboardSettings,
  check: checkLeaderboardConfig,
  errors: leaderboardErrors,
  roles: { api: apiRole, archiver: archiverRole },
  open: openLeaderboard,
  routes: leaderboardRoutes,
  readiness: (instance) => ({
    // Ready while open; a store that is down (Cassandra) is named, and writes still go through.
    stores: async () => {
      if (!instance.isOpen()) return false;
      const degraded = await instance.ports.degraded?.();
      return degraded === undefined ? true : { degraded };
    },
    // Not ready once the win log refuses every append (a failed sync): only a restart reopens it.
    winLog: () => instance.ports.winLog.refusing?.() === undefined,
  }),
  metrics: registerLeaderboardMetrics,
  // The page at /leaderboard/ (apps/leaderboard/web), served where the API is.
  pages: { prefix: '/leaderboard/', root: new URL('../web/', import.meta.url) },
};

export const leaderboard = defineService(leaderboardDescriptor);
