import type { RoleDescriptor, StopRole } from '@tessera/kit';
import { catchUp } from '../catch-up.ts';
import type { LeaderboardInstance } from '../instance.ts';
import { startArchiving } from './archiving.ts';

/**
 * The `api` role: the HTTP API. On embedded stores, which live in this process only, no archiver
 * can run apart, so an api process without the archiver role beside it archives too. On shared
 * stores it catches the ranking up with the win log every few seconds: a win whose api process
 * died between its append and its apply reaches the ranking that way.
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

const CATCH_UP_INTERVAL_MS = 5_000;

function startCatchingUp(instance: LeaderboardInstance): Promise<StopRole> {
  // Every few seconds: only what goes wrong is worth a line.
  const quiet = instance.logger.child({}, { level: 'warn' });
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => catchUp(instance.ports, quiet))
      .catch((error: unknown) => instance.logger.warn({ err: error }, 'catching up with the win log failed'));
  }, CATCH_UP_INTERVAL_MS);
  timer.unref();
  return Promise.resolve(async () => {
    clearInterval(timer);
    await running;
  });
}
