/**
 * The period rollover, in one place: which periods are finished, how a finished period moves to
 * historical storage, and where a period is read from meanwhile.
 *
 * A period's live ranking keeps answering until its archive is complete, so a finished period is
 * readable the whole time; archiving again after a crash redoes the period from the start.
 */
import type { Logger } from '@tessera/kit';
import { comparePeriods, type Period } from './core/period.ts';
import type { ArchiveStore, RankingStore, StandingsReader } from './ports.ts';

/**
 * Whether a period is archived, asking the archive only when the period has no live ranking: the
 * live periods (the current month) are answered while the archive store is down.
 */
export async function isArchivedPeriod(
  period: Period,
  stores: { readonly rankings: RankingStore; readonly archive: ArchiveStore },
): Promise<boolean> {
  if ((await stores.rankings.periods()).includes(period)) return false;
  return stores.archive.isArchived(period);
}

/** A period is read from its live ranking while it has one, from the archive once archived. */
export async function readerFor(
  period: Period,
  stores: { readonly rankings: RankingStore; readonly archive: ArchiveStore },
): Promise<StandingsReader> {
  const live = await stores.rankings.periods();
  if (live.includes(period)) return stores.rankings;
  return (await stores.archive.isArchived(period)) ? stores.archive : stores.rankings;
}

export interface ArchiveOptions {
  readonly rankings: RankingStore;
  readonly archive: ArchiveStore;
  readonly currentPeriod: Period;
  readonly logger: Logger;
  /** Called once a period is safely archived and its live ranking dropped. */
  readonly onArchived?: (period: Period) => Promise<void> | void;
}

/** Archives every live ranking of a period before the current one, then drops it. */
export async function archiveFinishedPeriods(options: ArchiveOptions): Promise<Period[]> {
  const { rankings, archive, currentPeriod, logger } = options;
  const archived: Period[] = [];
  for (const period of await rankings.periods()) {
    if (comparePeriods(period, currentPeriod) >= 0) continue;
    if (!(await archive.isArchived(period))) {
      const started = Date.now();
      logger.info({ period }, 'archiving finished period');
      const players = await archive.write(period, rankings.standings(period));
      logger.info({ period, players, ms: Date.now() - started }, 'archived finished period');
    }
    await rankings.drop(period);
    await options.onArchived?.(period);
    archived.push(period);
  }
  return archived;
}
