import { ConfigError, setting, type ConfigOf } from '@tessera/kit';
import {
  distributedServers,
  distributedSettings,
  wantsDistributed,
} from './adapters/distributed-settings.ts';
import { PERIOD_KINDS, periodClock } from './core/period.ts';
import { TIE_BREAKS } from './core/standing.ts';

/** The leaderboard's settings; each key is the environment variable. See docs/leaderboard.md. */
export const leaderboardSettings = {
  LEADERBOARD_PERIOD: setting.oneOf(PERIOD_KINDS, {
    default: 'monthly',
    description: 'how long a board lasts: monthly (the spec), weekly (ISO weeks) or daily',
  }),
  LEADERBOARD_TIE_BREAK: setting.oneOf(TIE_BREAKS, {
    default: 'shared',
    description: 'shared: equal scores share a rank; earliest: who reached the score first ranks higher',
  }),
  LEADERBOARD_TIMEZONE: setting.string({
    default: 'UTC',
    description: 'IANA time zone in which periods start and end',
  }),
  LEADERBOARD_MAX_POINTS: setting.int({
    default: 10_000,
    min: 1,
    max: 1_000_000,
    description: 'most points one win may add',
  }),
  LEADERBOARD_CHECKPOINT_INTERVAL_MS: setting.int({
    default: 10_000,
    min: 100,
    description: 'ranking checkpoint period (embedded)',
  }),
  LEADERBOARD_ARCHIVE_INTERVAL_MS: setting.int({
    default: 60_000,
    min: 100,
    description: 'how often finished months are looked for and archived',
  }),
  LEADERBOARD_ARCHIVE_GRACE_MS: setting.int({
    default: 60_000,
    min: 0,
    description:
      'a period is archived only this long after it ended, so wins still in flight for it are in (above HTTP_REQUEST_TIMEOUT_MS and the clock skew between processes)',
  }),
  LEADERBOARD_PROFILE_CACHE_SIZE: setting.int({
    default: 100,
    min: 10,
    description: 'profiles kept in the cache',
  }),
  LEADERBOARD_WRITE_LIMIT_PER_MINUTE: setting.int({
    default: 600_000,
    min: 1,
    description: 'score updates per minute per game server',
  }),
  LEADERBOARD_READ_LIMIT_PER_MINUTE: setting.int({
    default: 60_000,
    min: 1,
    description: 'reads per minute per client',
  }),
  // NATS_URL, REDIS_URL, CASSANDRA_URL and the rest: set, they choose the distributed adapters.
  ...distributedSettings,
};

export type LeaderboardConfig = ConfigOf<typeof leaderboardSettings>;

/** Checks no single setting can make: a time zone Intl knows, all three servers or none. */
export function checkLeaderboardConfig(config: LeaderboardConfig): string[] {
  const problems: string[] = [];
  try {
    periodClock(config.LEADERBOARD_TIMEZONE);
  } catch {
    problems.push(
      `LEADERBOARD_TIMEZONE must be an IANA time zone such as UTC or Europe/Paris (got "${config.LEADERBOARD_TIMEZONE}")`,
    );
  }
  if (wantsDistributed(config)) {
    try {
      distributedServers(config);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message.replace(/^Invalid configuration:\n\s*/, ''));
    }
  }
  return problems;
}
