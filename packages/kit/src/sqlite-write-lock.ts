/**
 * Waiting for another connection's write lock on the event loop (SqliteGroupCommit's
 * `yieldWhileBusyMs`): SQLite's busy handler sleeps the thread a millisecond and more a try, and
 * a thread that also serves requests should keep answering while another thread commits.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** SQLite's primary codes for a lock another connection holds (extended codes keep it in the low byte). */
function heldByOther(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

export class WriteLockProbe {
  readonly #db: DatabaseSync;
  readonly #begin: StatementSync;
  readonly #rollback: StatementSync;
  readonly #busyTimeout: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#rollback = db.prepare('ROLLBACK');
    this.#busyTimeout = db.prepare('PRAGMA busy_timeout');
  }

  /**
   * False only when another connection holds the write lock now. The lock is taken and given back
   * at once (a hook must run outside any transaction before the commit takes it for good); any
   * other failure answers true, for the commit to meet again and report.
   */
  free(): boolean {
    try {
      const before = (this.#busyTimeout.get() as { timeout: number }).timeout;
      this.#db.exec('PRAGMA busy_timeout = 0');
      try {
        this.#begin.run();
        this.#rollback.run();
      } finally {
        this.#db.exec(`PRAGMA busy_timeout = ${before}`);
      }
      return true;
    } catch (error) {
      return !heldByOther(error);
    }
  }
}
