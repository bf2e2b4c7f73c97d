import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite, type Logger } from '@tessera/kit';
import { archiveFinishedMonths } from '../../archiver.ts';
import type { Period } from '../../core/period.ts';
import type { TieBreak } from '../../core/standing.ts';
import { LeaderboardService } from '../../service.ts';
import { CachedProfileStore } from '../cache/cached-profile-store.ts';
import { CheckpointWriter } from './checkpoint-writer.ts';
import { MemoryRankingStore } from './memory-ranking-store.ts';
import { SqliteArchiveStore } from './sqlite-archive-store.ts';
import { SqliteProfileStore } from './sqlite-profile-store.ts';
import { SqliteRankingCheckpoints } from './sqlite-ranking-checkpoints.ts';
import { SqliteWinLog } from './sqlite-win-log.ts';

export interface EmbeddedLeaderboardOptions {
  readonly dataDir: string;
  readonly tieBreak: TieBreak;
  /** fsync every commit (survives power loss) or let the OS write back (survives a process crash). */
  readonly fsync: boolean;
  readonly now: () => number;
  readonly periodOf: (epochMs: number) => Period;
  readonly logger: Logger;
  readonly checkpointIntervalMs: number;
  readonly archiveIntervalMs: number;
  readonly profileCacheSize: number;
}

export interface EmbeddedLeaderboard {
  readonly service: LeaderboardService;
  readonly rankings: MemoryRankingStore;
  readonly profiles: CachedProfileStore;
  /** Saves every live ranking now (also runs on a timer and at close). */
  checkpoint(): Promise<void>;
  /** Archives finished months now (also runs on a timer). */
  archive(): Promise<Period[]>;
  close(): Promise<void>;
}

/**
 * The leaderboard with no external server: win log, checkpoints, archive and profiles in four
 * node:sqlite files under DATA_DIR/leaderboard, live rankings in memory.
 *
 * Start-up recovers each month still in play: it loads the month's checkpoint (unless it is
 * missing or ahead of the win log, which means it is stale) and replays the wins after it.
 * Checkpoints are then written by a worker thread (checkpoint-writer.ts) off the request path.
 */
export async function openEmbeddedLeaderboard(
  options: EmbeddedLeaderboardOptions,
): Promise<EmbeddedLeaderboard> {
  const { logger } = options;
  const dir = join(options.dataDir, 'leaderboard');
  const synchronous = options.fsync ? 'full' : 'normal';
  const databases: DatabaseSync[] = [];
  const open = (name: string): DatabaseSync => {
    const db = openSqlite(join(dir, name), { synchronous });
    databases.push(db);
    return db;
  };
  const winLog = new SqliteWinLog(open('wins.db'));
  // Checkpoints are read here at start; from then on the worker writes them.
  const checkpoints = new SqliteRankingCheckpoints(open('ranking.db'));
  const archive = new SqliteArchiveStore(open('history.db'));
  const profiles = new CachedProfileStore(
    new SqliteProfileStore(open('profiles.db')),
    options.profileCacheSize,
  );
  const rankings = new MemoryRankingStore(options.tieBreak);

  for (const period of await winLog.periods()) {
    if (await archive.isArchived(period)) continue;
    await recoverMonth(period, { winLog, checkpoints, rankings, tieBreak: options.tieBreak, logger });
  }
  const unsubscribe = winLog.subscribe((wins) => rankings.applySync(wins));
  const writer = new CheckpointWriter(join(dir, 'ranking.db'), synchronous);

  // Checkpoints and archiving both touch the live rankings: run them one at a time.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = chain.then(task);
    chain = run.catch(() => undefined);
    return run;
  };
  const checkpoint = (): Promise<void> =>
    serial(async () => {
      for (const period of await rankings.periods()) {
        const written = await writer.save(period, rankings.ranking(period));
        if (written > 0) logger.debug({ period, written }, 'ranking checkpoint saved');
      }
    });
  const archiveNow = (): Promise<Period[]> =>
    serial(() =>
      archiveFinishedMonths({
        rankings,
        archive,
        currentPeriod: options.periodOf(options.now()),
        logger,
        onArchived: (period) => writer.discard(period),
      }),
    );
  const logFailure = (what: string) => (error: unknown) => logger.error({ err: error }, `${what} failed`);

  await archiveNow();
  const checkpointTimer = setInterval(
    () => void checkpoint().catch(logFailure('checkpoint')),
    options.checkpointIntervalMs,
  );
  const archiveTimer = setInterval(
    () => void archiveNow().catch(logFailure('archiving')),
    options.archiveIntervalMs,
  );
  checkpointTimer.unref();
  archiveTimer.unref();

  const service = new LeaderboardService({
    winLog,
    rankings,
    archive,
    profiles,
    now: options.now,
    periodOf: options.periodOf,
  });
  return {
    service,
    rankings,
    profiles,
    checkpoint,
    archive: archiveNow,
    async close() {
      clearInterval(checkpointTimer);
      clearInterval(archiveTimer);
      await winLog.close();
      unsubscribe();
      await checkpoint();
      await writer.close();
      for (const db of databases) db.close();
    },
  };
}

interface RecoverDeps {
  readonly winLog: SqliteWinLog;
  readonly checkpoints: SqliteRankingCheckpoints;
  readonly rankings: MemoryRankingStore;
  readonly tieBreak: TieBreak;
  readonly logger: Logger;
}

async function recoverMonth(period: Period, deps: RecoverDeps): Promise<void> {
  const { winLog, checkpoints, rankings, logger } = deps;
  const started = Date.now();
  const lastSeq = await winLog.lastSeq(period);
  const savedSeq = checkpoints.appliedSeq(period);
  if (savedSeq !== undefined && savedSeq > lastSeq) {
    logger.warn(
      { period, savedSeq, lastSeq },
      'ranking checkpoint is ahead of the win log: rebuilding the month',
    );
    checkpoints.discard(period);
  }
  const ranking = checkpoints.load(period, deps.tieBreak);
  rankings.adopt(period, ranking);
  const restored = ranking.size;
  let replayed = 0;
  let nextProgress = 1_000_000;
  for await (const batch of winLog.read(period, ranking.appliedSeq)) {
    rankings.applySync(batch);
    replayed += batch.length;
    if (replayed >= nextProgress) {
      logger.info({ period, replayed, lastSeq }, 'replaying win log');
      nextProgress += 1_000_000;
    }
  }
  logger.info(
    { period, players: ranking.size, restored, replayed, ms: Date.now() - started },
    restored === 0 && replayed > 0 ? 'ranking rebuilt from the win log' : 'ranking recovered',
  );
}
