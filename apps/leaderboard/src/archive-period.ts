/**
 * `tessera archive leaderboard --period P --keep N` (what the operator's archive Job runs): moves
 * one finished period to the archive, then forgets the archives past the retention. The operator
 * decides that P is over (its clock, the board's time zone), so the command does not ask its own
 * clock. Idempotent: an archived period is not written again, only its live ranking is dropped
 * (again), and pruning a pruned archive does nothing, so a Job's retry is safe.
 */
import type { Logger, PlatformConfig } from '@tessera/kit';
import { selectAdapters } from './adapters/select.ts';
import type { LeaderboardConfig } from './config.ts';
import { comparePeriods, type Period } from './core/period.ts';

export interface ArchivePeriodOptions {
  readonly config: LeaderboardConfig;
  readonly platform: PlatformConfig;
  readonly logger: Logger;
  readonly period: Period;
  /** Archived periods kept, the newest; at least 1. */
  readonly keep: number;
}

export interface ArchivePeriodResult {
  readonly period: Period;
  /** False: it was archived already (by an earlier run, or the archiver role). */
  readonly written: boolean;
  /** Players in the archive of `period` when this run wrote it. */
  readonly players?: number;
  /** The archives deleted as past the retention, oldest first. */
  readonly pruned: readonly Period[];
}

/** The archived periods past the newest `keep`, oldest first. Pure. */
export function beyondRetention(archived: readonly Period[], keep: number): Period[] {
  const sorted = [...archived].sort(comparePeriods);
  return sorted.slice(0, Math.max(0, sorted.length - keep));
}

export async function archivePeriod(options: ArchivePeriodOptions): Promise<ArchivePeriodResult> {
  const { period, keep, logger } = options;
  if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`keep must be an integer >= 1 (got ${keep})`);
  const ports = await selectAdapters(options.config, options.platform, logger);
  try {
    let players: number | undefined;
    const written = !(await ports.archive.isArchived(period));
    if (written) players = await ports.archive.write(period, ports.rankings.standings(period));
    // Only once the archive is complete: until then the live ranking answers for the period.
    await ports.rankings.drop(period);
    const pruned = beyondRetention(await ports.archive.periods(), keep);
    for (const old of pruned) {
      await ports.archive.delete(old);
      logger.info({ period: old, keep }, 'archive past the retention deleted');
    }
    return { period, written, ...(players === undefined ? {} : { players }), pruned };
  } finally {
    await ports.close();
  }
}
