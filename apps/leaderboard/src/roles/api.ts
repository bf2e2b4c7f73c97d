import type { RoleDescriptor, StopRole } from '@tessera/kit';
import { catchUp } from '../catch-up.ts';
import type { LeaderboardInstance } from '../instance.ts';
import { RankingWatch } from '../ranking-watch.ts';
import { startArchiving } from './archiving.ts';

/**
 * The `api` role: the HTTP API. On embedded stores, which live in this process only, no archiver
 * can run apart, so an api process without the archiver role beside it archives too. On shared
 * stores it catches the ranking up with the win log every few seconds: a win whose api process
 * died between its append and its apply reaches the ranking that way; and every second it looks
 * for a ranking that lost wins (ranking-watch.ts), to rebuild it before serving it again.
 */
export const apiRole: RoleDescriptor<LeaderboardInstance> = {
  description: 'the HTTP API: score updates, the top list, ranks, profiles',
  servesApi: true,
  async start(instance, context) {
    if (instance.ports.shared) return startCatchingUp(instance);
    if (context.roles.includes('archiver')) return undefined;
    return startArchiving(instance);
  },
};

const WATCH_INTERVAL_MS = 1_000;
/** A catch-up every this many watches. */
const CATCH_UP_EVERY = 5;

function startCatchingUp(instance: LeaderboardInstance): Promise<StopRole> {
  // Every few seconds: only what goes wrong is worth a line.
  const quiet = instance.logger.child({}, { level: 'warn' });
  const watch = new RankingWatch(instance.ports, instance.rankingGate, quiet);
  let running: Promise<unknown> = Promise.resolve();
  let ticks = 0;
  const timer = setInterval(() => {
    const catchingUp = ++ticks % CATCH_UP_EVERY === 0;
    running = running
      .then(() => watch.check())
      .then(() => (catchingUp ? catchUp(instance.ports, quiet) : undefined))
      .catch((error: unknown) => instance.logger.warn({ err: error }, 'catching up with the win log failed'));
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return Promise.resolve(async () => {
    clearInterval(timer);
    await running;
  });
}
