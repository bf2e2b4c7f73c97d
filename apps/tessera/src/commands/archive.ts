/**
 * `tessera archive leaderboard --period <P> --keep <N>`: what the operator's archive Job runs at
 * a period's end (operators/tessera-operator/src/leaderboard/children.ts builds that Job).
 */
import { parseArgs } from 'node:util';
import { archivePeriod } from '@tessera/leaderboard';
import { leaderboardCommandSettings, periodArgument } from './leaderboard-settings.ts';
import { CommandUsageError } from './usage-error.ts';
import { ARCHIVE_USAGE } from './usage.ts';

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
  const settings = leaderboardCommandSettings(env);
  const period = periodArgument('archive', values.period, settings);
  const keep = Number(values.keep);
  if (values.keep === undefined || !/^\d+$/.test(values.keep) || keep < 1) {
    throw new CommandUsageError(
      `archive needs --keep with the number of archives to keep, at least 1 (got ${JSON.stringify(values.keep ?? '')})`,
    );
  }
  // One line per run in the Job's log (the logger says only what goes wrong, unless asked).
  const result = await archivePeriod({
    config: settings.leaderboard,
    platform: settings.platform,
    logger: settings.logger,
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
