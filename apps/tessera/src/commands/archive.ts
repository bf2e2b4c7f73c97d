/**
 * `tessera archive leaderboard --period <P> --keep <N>`: what the operator's archive Job runs at
 * a period's end (operators/tessera-operator/src/leaderboard/children.ts builds that Job).
 */
import { parseArgs } from 'node:util';
import { configError, createLogger, parseConfig, platformSettings } from '@tessera/kit';
import { archivePeriod, checkLeaderboardConfig, isPeriod, leaderboardSettings } from '@tessera/leaderboard';
import { CommandUsageError } from './leaderboard.ts';

export const ARCHIVE_USAGE = `  archive leaderboard --period <P> --keep <N>
                                archive a finished period (idempotent) and delete the archives
                                beyond the newest N (the operator's archive Job runs this)`;

export async function archiveCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [service, ...rest] = args;
  if (service !== 'leaderboard') {
    throw new CommandUsageError(`archive needs a service (leaderboard):\n${ARCHIVE_USAGE}`);
  }
  let values: { period?: string | undefined; keep?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: [...rest],
      options: { period: { type: 'string' }, keep: { type: 'string' } },
    }));
  } catch (error) {
    throw new CommandUsageError(`${(error as Error).message}\n${ARCHIVE_USAGE}`);
  }
  const platform = parseConfig(platformSettings, env);
  const leaderboard = parseConfig(leaderboardSettings, env);
  const problems = [...platform.problems, ...leaderboard.problems];
  if (problems.length === 0) problems.push(...checkLeaderboardConfig(leaderboard.values));
  if (problems.length > 0) throw configError(problems);
  const kind = leaderboard.values.LEADERBOARD_PERIOD;
  const { period } = values;
  if (period === undefined || !isPeriod(period, kind)) {
    throw new CommandUsageError(
      `archive needs --period with a ${kind} period name (got ${JSON.stringify(period ?? '')})`,
    );
  }
  const keep = Number(values.keep);
  if (values.keep === undefined || !/^\d+$/.test(values.keep) || keep < 1) {
    throw new CommandUsageError(
      `archive needs --keep with the number of archives to keep, at least 1 (got ${JSON.stringify(values.keep ?? '')})`,
    );
  }
  // One line per run in the Job's log (JSON from the logger would say the same, less plainly).
  const logger = createLogger({ level: env.LOG_LEVEL ? platform.values.LOG_LEVEL : 'warn', name: 'tessera' });
  const result = await archivePeriod({
    config: leaderboard.values,
    platform: platform.values,
    logger,
    period,
    keep,
  });
  const what = result.written
    ? `archived ${period}: ${(result.players ?? 0).toLocaleString('en-US')} players`
    : `${period} was archived already`;
  const pruned = result.pruned.length === 0 ? 'nothing past' : `deleted ${result.pruned.join(', ')}, past`;
  console.log(`${what}; ${pruned} the retention of ${keep}`);
  return 0;
}
