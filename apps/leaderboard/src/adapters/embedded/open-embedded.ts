import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite, type Logger } from '@tessera/kit';
import type { TieBreak } from '../../core/standing.ts';
import type { LeaderboardPorts } from '../../ports.ts';
import { CachedProfileStore } from '../cache/cached-profile-store.ts';
import { CheckpointedRankingStore } from './checkpointed-ranking-store.ts';
import { SqliteArchiveStore } from './sqlite-archive-store.ts';
import { SqliteProfileStore } from './sqlite-profile-store.ts';
import { SqliteRankingCheckpoints } from './sqlite-ranking-checkpoints.ts';
import { GroupCommitWinLog } from './group-commit-win-log.ts';

export interface EmbeddedOptions {
  readonly dataDir: string;
  readonly tieBreak: TieBreak;
  /** fsync every commit (survives power loss) or let the OS write back (survives a process crash). */
  readonly fsync: boolean;
  readonly logger: Logger;
  readonly checkpointIntervalMs: number;
  readonly profileCacheSize: number;
}

/**
 * The leaderboard with no external server: win log, ranking checkpoints, archive and profiles in
 * four node:sqlite files under DATA_DIR/leaderboard, live rankings in memory. Not shared: every
 * role runs in the one process that opened them.
 */
export function openEmbeddedAdapters(options: EmbeddedOptions): LeaderboardPorts {
  const dir = join(options.dataDir, 'leaderboard');
  const synchronous = options.fsync ? 'full' : 'normal';
  const databases: DatabaseSync[] = [];
  const open = (name: string): DatabaseSync => {
    const db = openSqlite(join(dir, name), { synchronous });
    databases.push(db);
    return db;
  };
  // The group commit on the event loop, its fdatasync on libuv's pool: see docs/leaderboard.md.
  const winLog = new GroupCommitWinLog({
    file: join(dir, 'wins.db'),
    synchronous,
    reader: open('wins.db'),
    // Fewer, larger groups under load (session 21's A/B, docs/benchmarks.md); never past a sync.
    holdMicros: 200,
  });
  const archive = new SqliteArchiveStore(open('history.db'));
  const profiles = new CachedProfileStore(
    new SqliteProfileStore(open('profiles.db')),
    options.profileCacheSize,
  );
  const rankings = new CheckpointedRankingStore({
    tieBreak: options.tieBreak,
    checkpoints: new SqliteRankingCheckpoints(open('ranking.db')),
    file: join(dir, 'ranking.db'),
    // Never fsynced per commit: a checkpoint only shortens the replay, the win log is the record.
    // A crash may lose the last checkpoints (WAL loses a suffix of commits, `covered` last), and
    // the replay from the older covered seq skips what each player's entry already holds. Its
    // fsyncs would also queue on the disk in front of the win log's, which answers requests.
    synchronous: 'normal',
    intervalMs: options.checkpointIntervalMs,
    logger: options.logger,
  });
  return {
    winLog,
    rankings,
    archive,
    profiles,
    stats: {
      rankingBytes: () => rankings.bytes(),
      profileCacheHits: () => profiles.stats.hits,
      winLogWal: () => winLog.walCheckpoints,
    },
    shared: false,
    checkpoint: () => rankings.checkpoint(),
    async close() {
      // Appends first (they commit), then the final checkpoint, then the files.
      await winLog.close();
      await rankings.close();
      for (const db of databases) db.close();
    },
  };
}
