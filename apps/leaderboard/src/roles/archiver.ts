import { ConfigError, type RoleDescriptor } from '@tessera/kit';
import type { LeaderboardInstance } from '../instance.ts';
import { startArchiving } from './archiving.ts';

/** The `archiver` role: the period rollover, one process for every api replica. */
export const archiverRole: RoleDescriptor<LeaderboardInstance> = {
  description: 'the period rollover: archives each finished period, then drops its live ranking',
  servesApi: false,
  async start(instance, context) {
    if (!instance.ports.shared && !context.roles.includes('api')) {
      throw new ConfigError(
        'the archiver role runs in a process of its own only on shared stores (NATS_URL, REDIS_URL, CASSANDRA_URL); on embedded stores the api role archives',
      );
    }
    return startArchiving(instance);
  },
};
