import type { DatabaseSync } from 'node:sqlite';
import {
  openSqlite,
  SqliteGroupCommit,
  walCopyBack,
  WalCheckpointer,
  type SyncFile,
  type WalCheckpoints,
  type WalRestarts,
} from '@tessera/kit/sqlite';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult, WinLog } from '../../ports.ts';
import { WinLogReads } from './win-log-reads.ts';
import { ThreadedWinLogReads } from './threaded-win-log-reads.ts';
import { WinBatchWriter } from './win-batch-writer.ts';

export interface GroupCommitWinLogOptions {
  /** wins.db; the log opens its own write connection to it. */
  readonly file: string;
  /** `full`: an append resolves after an fdatasync of the WAL; `normal`: after its commit. */
  readonly synchronous: 'full' | 'normal';
  /** A connection to the same file for the last seq (replays have a thread). */
  readonly reader: DatabaseSync;
  /** How often the WAL is copied back into the file (default 1 s). */
  readonly walCheckpointMs?: number;
  /** When a group first copies back the WAL (default: the checkpointer's rule; tests may force it). */
  readonly walRestarts?: WalRestarts;
  /** While a sync runs, hold a group's commit up to this long, µs (see SqliteGroupCommit). */
  readonly holdMicros?: number;
  /** Tests: the WAL's sync (default `fs.fdatasync`). */
  readonly sync?: SyncFile;
}

/**
 * The win log with its group commit on the event loop (the kit's SqliteGroupCommit): the wins of
 * a turn are inserted in one transaction here, with no fsync, and one fdatasync of the WAL on
 * libuv's pool makes them durable; an append resolves only after it. A writer thread cost more
 * CPU in messages and wake-ups than the inserts themselves (docs/benchmarks.md, 2026-11-28).
 */
export class GroupCommitWinLog implements WinLog {
  readonly #db: DatabaseSync;
  readonly #writer: WinBatchWriter;
  readonly #commits: SqliteGroupCommit<NewWin, AppendResult>;
  readonly #checkpointer: WalCheckpointer;
  readonly #reads: WinLogReads;
  readonly #replays: ThreadedWinLogReads;
  #closed = false;

  constructor(options: GroupCommitWinLogOptions) {
    this.#db = openSqlite(options.file, { synchronous: 'normal' });
    let restarts: WalRestarts | undefined = options.walRestarts;
    let commits: SqliteGroupCommit<NewWin, AppendResult> | undefined;
    try {
      this.#writer = new WinBatchWriter(this.#db);
      this.#reads = new WinLogReads(options.reader);
      this.#replays = new ThreadedWinLogReads(options.file);
      // On this connection, at NORMAL: the copy-back syncs the WAL before and the file after.
      // Its failures go to the checkpointer, which is made last (below): read when one happens.
      const copyBack = walCopyBack(this.#db, {
        copyBackFailed: (message) => restarts?.copyBackFailed(message),
      });
      commits = new SqliteGroupCommit({
        db: this.#db,
        file: options.file,
        durable: options.synchronous === 'full',
        sync: options.sync,
        holdMicros: options.holdMicros,
        commit: (wins) => {
          if (restarts?.takeRestart() === true) copyBack();
          return this.#writer.write(wins).results;
        },
      });
      this.#commits = commits;
      // The thread comes last: nothing after it can throw, so a failed construction leaks no thread.
      this.#checkpointer = new WalCheckpointer(
        options.file,
        options.synchronous,
        options.walCheckpointMs ?? 1000,
      );
    } catch (error) {
      // Idle, the group commit closes its WAL descriptor at once; then the connection.
      void commits?.close();
      this.#db.close();
      throw error;
    }
    restarts ??= this.#checkpointer;
  }

  append(win: NewWin): Promise<AppendResult> {
    if (this.#closed) return Promise.reject(new Error('win log is closed'));
    return this.#commits.submit(win);
  }

  /** How the WAL's checkpoints went (tests, diagnostics). */
  get walCheckpoints(): WalCheckpoints {
    return this.#checkpointer.stats;
  }

  /** A replay reads on a thread of its own, a batch ahead of the caller. */
  read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    return this.#replays.read(period, afterSeq);
  }

  periods(): Promise<Period[]> {
    return Promise.resolve([...this.#writer.periods].sort());
  }

  lastSeq(period: Period): Promise<number> {
    return Promise.resolve(this.#reads.lastSeq(period));
  }

  players(period: Period): Promise<number> {
    return Promise.resolve(this.#reads.players(period));
  }

  refusing(): string | undefined {
    return this.#commits.failure?.message;
  }

  /** Stops taking appends, waits for the submitted ones to commit and sync, then closes. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#commits.close();
    await this.#checkpointer.close();
    this.#db.close();
  }
}
