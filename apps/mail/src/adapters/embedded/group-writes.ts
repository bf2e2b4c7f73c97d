/**
 * Mail's writes through the kit's group commit (SqliteGroupCommit): the writes callers issue
 * during one turn of the event loop share one transaction, committed on the next turn, instead of
 * one COMMIT each (each COMMIT writes its pages to the WAL again, and FTS5 flushes a segment per
 * transaction).
 *
 * Durability is the connection's (`durability: 'connection'`): a write's promise resolves only
 * after the COMMIT that holds it, at the file's `synchronous` setting (FULL syncs the WAL in the
 * COMMIT), so whatever a caller was told is written (a 250 to an SMTP client, an ack) is on disk as
 * it would have been alone. Each write is atomic, and one that throws is undone alone (a savepoint
 * of the group's transaction), so the adapters' writes need no transaction of their own. When
 * SQLite rolls the whole transaction back (I/O error, full disk) or COMMIT fails, every write of
 * the group fails.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { SqliteGroupCommit } from '@tessera/kit/sqlite';

type Write = () => unknown;

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: Error };

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export interface GroupWritesOptions {
  /**
   * How long a group's BEGIN waits for another connection's write lock, instead of the
   * connection's own timeout; set only while the group takes the lock (the commit is synchronous,
   * so no other statement of the connection sees it).
   */
  readonly busyTimeoutMs?: number;
  /**
   * The kit's lock wait on the event loop (SqliteGroupCommit's `yieldWhileBusyMs`): a thread that
   * also serves SMTP keeps answering while another thread commits.
   */
  readonly yieldWhileBusyMs?: number;
  /** Run just before each group takes the lock, outside any transaction (wal-checkpoints.ts). */
  readonly beforeBegin?: () => void;
}

export class GroupWrites {
  readonly #db: DatabaseSync;
  readonly #commits: SqliteGroupCommit<Write, Outcome>;
  // Prepared once: they run for every group and every write, and db.exec would parse them each time.
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  readonly #savepoint: StatementSync;
  readonly #release: StatementSync;
  readonly #undo: StatementSync;
  readonly #busyTimeout: StatementSync;
  readonly #busyTimeoutMs: number | undefined;
  /** Transactions committed and writes they held, since the start (tests, diagnostics). */
  readonly stats = { commits: 0, writes: 0 };

  constructor(db: DatabaseSync, options: GroupWritesOptions = {}) {
    this.#db = db;
    this.#busyTimeoutMs = options.busyTimeoutMs;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT group_write');
    this.#release = db.prepare('RELEASE group_write');
    this.#undo = db.prepare('ROLLBACK TO group_write');
    this.#busyTimeout = db.prepare('PRAGMA busy_timeout');
    this.#commits = new SqliteGroupCommit<Write, Outcome>({
      db,
      durability: 'connection',
      ...(options.yieldWhileBusyMs === undefined ? {} : { yieldWhileBusyMs: options.yieldWhileBusyMs }),
      ...(options.beforeBegin === undefined ? {} : { beforeBegin: options.beforeBegin }),
      commit: (writes) => this.#commitGroup(writes),
    });
  }

  /**
   * Runs `write` (synchronous SQLite statements, atomic: all or none) in the next group;
   * resolves once it is committed.
   */
  async run<T>(write: () => T): Promise<T> {
    const outcome = await this.#commits.submit(write);
    if (!outcome.ok) throw outcome.error;
    return outcome.value as T;
  }

  /** Stops taking writes; resolves once those submitted are committed (or failed). */
  close(): Promise<void> {
    return this.#commits.close();
  }

  #commitGroup(writes: readonly Write[]): Outcome[] {
    let outcomes: Outcome[];
    try {
      this.#lock();
      // A group of one needs no savepoint: its failure rolls the transaction back (below).
      outcomes =
        writes.length === 1 ? [{ ok: true, value: writes[0]?.() }] : writes.map((w) => this.#apply(w));
      this.#commit.run();
    } catch (error) {
      if (this.#db.isOpen && this.#db.isTransaction) this.#rollback.run();
      throw asError(error);
    }
    this.stats.commits++;
    this.stats.writes += writes.length;
    return outcomes;
  }

  /** BEGIN IMMEDIATE, with this group's own busy timeout when it has one. */
  #lock(): void {
    if (this.#busyTimeoutMs === undefined) {
      this.#begin.run();
      return;
    }
    const before = (this.#busyTimeout.get() as { timeout: number }).timeout;
    this.#db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(this.#busyTimeoutMs))}`);
    try {
      this.#begin.run();
    } finally {
      this.#db.exec(`PRAGMA busy_timeout = ${before}`);
    }
  }

  /** One write of a larger group, in a savepoint: undone alone if it throws. */
  #apply(write: Write): Outcome {
    this.#savepoint.run();
    try {
      const value = write();
      this.#release.run();
      return { ok: true, value };
    } catch (error) {
      // SQLite ended the whole transaction: nothing of the group is written.
      if (!this.#db.isTransaction) throw error;
      this.#undo.run();
      this.#release.run();
      return { ok: false, error: asError(error) };
    }
  }
}
