import type { RoleDescriptor } from '@tessera/kit';
import type { LeaderboardInstance } from '../instance.ts';
import { startArchiving } from './archiving.ts';

/**
 * The `api` role: the HTTP API. On embedded stores, which live in this process only, no archiver
 * can run apart, so an api process without the archiver role beside it archives too.
 */
export const apiRole: RoleDescriptor<LeaderboardInstance> = {
  description: 'the HTTP API: score updates, the top list, ranks, profiles',
  servesApi: true,
  async start(instance, context) {
    if (instance.ports.shared || context.roles.includes('archiver')) return undefined;
    return startArchiving(instance);
  },
};
