import type { StopRole } from '@tessera/kit';
import type { LeaderboardInstance } from '../instance.ts';

/**
 * The rollover duty: archive finished periods at once (a process down at midnight catches up at
 * start), then every LEADERBOARD_ARCHIVE_INTERVAL_MS. Resolves to the function that stops it
 * after the run underway. An archive store that is down (Cassandra) does not stop the role: the
 * periods wait, and the next run archives them once it is back.
 */
export async function startArchiving(instance: LeaderboardInstance): Promise<StopRole> {
  await instance
    .archiveNow()
    .catch((error: unknown) =>
      instance.logger.warn({ err: error }, 'archiving failed at start: retrying every interval'),
    );
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = instance
      .archiveNow()
      .catch((error: unknown) => instance.logger.error({ err: error }, 'archiving failed'));
  }, instance.config.LEADERBOARD_ARCHIVE_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
