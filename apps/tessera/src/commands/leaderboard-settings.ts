/**
 * What every leaderboard command reads first: the platform's and the leaderboard's settings, in
 * one pass (one message names every bad variable), a `--period` checked against the configured
 * period kind, and a logger that says only what goes wrong unless LOG_LEVEL asks for more (the
 * commands print their own plain lines).
 */
import {
  configError,
  createLogger,
  parseConfig,
  platformSettings,
  type ConfigOf,
  type Logger,
  type PlatformConfig,
} from '@tessera/kit';
import { checkLeaderboardConfig, isPeriod, leaderboardSettings } from '@tessera/leaderboard';
import { CommandUsageError } from './usage-error.ts';

export interface LeaderboardCommandSettings {
  readonly platform: PlatformConfig;
  readonly leaderboard: ConfigOf<typeof leaderboardSettings>;
  readonly logger: Logger;
}

export function leaderboardCommandSettings(env: NodeJS.ProcessEnv): LeaderboardCommandSettings {
  const platform = parseConfig(platformSettings, env);
  const leaderboard = parseConfig(leaderboardSettings, env);
  const problems = [...platform.problems, ...leaderboard.problems];
  if (problems.length === 0) problems.push(...checkLeaderboardConfig(leaderboard.values));
  if (problems.length > 0) throw configError(problems);
  return {
    platform: platform.values,
    leaderboard: leaderboard.values,
    logger: createLogger({ level: env.LOG_LEVEL ? platform.values.LOG_LEVEL : 'warn', name: 'tessera' }),
  };
}

/** The `--period` of `command`, a period name of the configured kind (a usage error otherwise). */
export function periodArgument(
  command: string,
  period: string | undefined,
  settings: LeaderboardCommandSettings,
): string {
  const kind = settings.leaderboard.LEADERBOARD_PERIOD;
  if (period === undefined || !isPeriod(period, kind)) {
    throw new CommandUsageError(
      `${command} needs --period with a ${kind} period name (got ${JSON.stringify(period ?? '')})`,
    );
  }
  return period;
}
