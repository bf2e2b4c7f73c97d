/** `tessera leaderboard <command>`: the leaderboard's operations. */
import { parseArgs } from 'node:util';
import { configError, createLogger, parseConfig, platformSettings } from '@tessera/kit';
import {
  checkLeaderboardConfig,
  isPeriod,
  leaderboardSettings,
  migrateAdapters,
  rebuildPeriod,
} from '@tessera/leaderboard';
import { progressLine } from './progress.ts';

export const LEADERBOARD_USAGE = `  leaderboard rebuild --period <P>
                                rebuild a period's ranking from the win log (YYYY-MM, or the
                                week or day name with LEADERBOARD_PERIOD=weekly|daily); on the
                                embedded stores, with the platform stopped
  leaderboard migrate           apply the stores' schemas (Cassandra in distributed mode)`;

export class CommandUsageError extends Error {}

export async function leaderboardCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'migrate') return migrate(env);
  if (command !== 'rebuild') {
    throw new CommandUsageError(`leaderboard needs a command:\n${LEADERBOARD_USAGE}`);
  }
  let values: { period?: string | undefined };
  try {
    ({ values } = parseArgs({ args: [...rest], options: { period: { type: 'string' } } }));
  } catch (error) {
    throw new CommandUsageError(`${(error as Error).message}\n${LEADERBOARD_USAGE}`);
  }
  const platform = parseConfig(platformSettings, env);
  const leaderboard = parseConfig(leaderboardSettings, env);
  const problems = [...platform.problems, ...leaderboard.problems];
  if (problems.length === 0) problems.push(...checkLeaderboardConfig(leaderboard.values));
  if (problems.length > 0) throw configError(problems);
  const kind = leaderboard.values.LEADERBOARD_PERIOD;
  const period = values.period;
  if (period === undefined || !isPeriod(period, kind)) {
    throw new CommandUsageError(
      `rebuild needs --period with a ${kind} period name (got ${JSON.stringify(period ?? '')})`,
    );
  }
  // The command prints its own progress; the log says only what goes wrong unless asked.
  const logger = createLogger({ level: env.LOG_LEVEL ? platform.values.LOG_LEVEL : 'warn', name: 'tessera' });
  const line = progressLine();
  const result = await rebuildPeriod({
    config: leaderboard.values,
    platform: platform.values,
    logger,
    period,
    onProgress: ({ applied, fraction, elapsedMs }) =>
      line.update(
        `rebuilding ${period}: ${applied.toLocaleString('en-US')} wins, ${Math.floor(fraction * 100)} % of the log, ${rate(applied, elapsedMs)}`,
      ),
  });
  line.done(
    `rebuilt ${period}: ${result.wins.toLocaleString('en-US')} wins, ${result.players.toLocaleString('en-US')} players in ${(result.elapsedMs / 1000).toFixed(1)} s (${rate(result.wins, result.elapsedMs)})`,
  );
  return 0;
}

async function migrate(env: NodeJS.ProcessEnv): Promise<number> {
  const leaderboard = parseConfig(leaderboardSettings, env);
  const problems = [...leaderboard.problems];
  if (problems.length === 0) problems.push(...checkLeaderboardConfig(leaderboard.values));
  if (problems.length > 0) throw configError(problems);
  console.log(await migrateAdapters(leaderboard.values));
  return 0;
}

function rate(count: number, elapsedMs: number): string {
  return `${Math.round(count / Math.max(elapsedMs / 1000, 0.001)).toLocaleString('en-US')} wins/s`;
}
