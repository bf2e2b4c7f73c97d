import type { Logger } from '@tessera/kit';
import { comparePeriods, type Period } from './core/period.ts';
import type { ArchiveStore, RankingStore } from './ports.ts';

export interface ArchiveOptions {
  readonly rankings: RankingStore;
  readonly archive: ArchiveStore;
  readonly currentPeriod: Period;
  readonly logger: Logger;
  /** Called once a month is safely archived and its live ranking dropped. */
  readonly onArchived?: (period: Period) => Promise<void> | void;
}

/**
 * Month rollover: every live ranking of a month before the current one is written to historical
 * storage, then dropped. Until the archive is complete the live ranking keeps answering, so a
 * finished month is readable the whole time. Running it again after a crash redoes the month.
 */
export async function archiveFinishedMonths(options: ArchiveOptions): Promise<Period[]> {
  const { rankings, archive, currentPeriod, logger } = options;
  const archived: Period[] = [];
  for (const period of await rankings.periods()) {
    if (comparePeriods(period, currentPeriod) >= 0) continue;
    if (!(await archive.isArchived(period))) {
      const started = Date.now();
      logger.info({ period }, 'archiving finished month');
      const players = await archive.write(period, rankings.standings(period));
      logger.info({ period, players, ms: Date.now() - started }, 'archived finished month');
    }
    await rankings.drop(period);
    await options.onArchived?.(period);
    archived.push(period);
  }
  return archived;
}
