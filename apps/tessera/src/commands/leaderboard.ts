/** `tessera leaderboard <command>`: the leaderboard's operations. */
import { parseArgs } from 'node:util';
import { configError, parseConfig } from '@tessera/kit';
import {
  checkLeaderboardConfig,
  leaderboardSettings,
  migrateAdapters,
  rebuildPeriod,
} from '@tessera/leaderboard';
import { leaderboardCommandSettings, periodArgument } from './leaderboard-settings.ts';
import { progressLine } from './progress.ts';
import { CommandUsageError } from './usage-error.ts';
import { LEADERBOARD_USAGE } from './usage.ts';

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
  const settings = leaderboardCommandSettings(env);
  const period = periodArgument('rebuild', values.period, settings);
  const line = progressLine();
  const result = await rebuildPeriod({
    config: settings.leaderboard,
    platform: settings.platform,
    logger: settings.logger,
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
