/**
 * `tessera leaderboard rebuild --period P`: throws a period's ranking away and rebuilds it from
 * the win log, reporting progress. The ranking is a projection of the log, so this is always safe;
 * it is what an operator runs after a ranking store was lost or corrupted.
 */
import type { Logger, PlatformConfig } from '@tessera/kit';
import { selectAdapters } from './adapters/select.ts';
import { catchUpPeriod } from './catch-up.ts';
import type { LeaderboardConfig } from './config.ts';
import type { Period } from './core/period.ts';

export interface RebuildProgress {
  readonly period: Period;
  /** Wins applied so far. */
  readonly applied: number;
  /** How far through the log the read is, 0 to 1 (seqs are shared with other periods). */
  readonly fraction: number;
  readonly elapsedMs: number;
}

export interface RebuildOptions {
  readonly config: LeaderboardConfig;
  readonly platform: PlatformConfig;
  readonly logger: Logger;
  readonly period: Period;
  readonly onProgress?: (progress: RebuildProgress) => void;
}

export interface RebuildResult {
  readonly period: Period;
  readonly wins: number;
  readonly players: number;
  readonly elapsedMs: number;
}

export async function rebuildPeriod(options: RebuildOptions): Promise<RebuildResult> {
  const { period } = options;
  const ports = await selectAdapters(options.config, options.platform, options.logger);
  const started = performance.now();
  try {
    await ports.rankings.drop(period);
    const wins = await catchUpPeriod(period, ports, options.logger, ({ replayed, seq, fromSeq, lastSeq }) =>
      options.onProgress?.({
        period,
        applied: replayed,
        fraction: lastSeq === fromSeq ? 1 : (seq - fromSeq) / (lastSeq - fromSeq),
        elapsedMs: performance.now() - started,
      }),
    );
    return {
      period,
      wins,
      players: await ports.rankings.players(period),
      elapsedMs: performance.now() - started,
    };
  } finally {
    await ports.close();
  }
}
