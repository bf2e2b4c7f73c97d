import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { WalCopyBackFailures } from './sqlite-wal-checkpointer.ts';

export interface SqliteOptions {
  /** `full` (default) survives power loss; `normal` is safe against process crashes only. */
  synchronous?: 'full' | 'normal';
}

/** Opens a SQLite file with the settings every service wants (WAL, durability, FK checks). */
export function openSqlite(file: string, opts: SqliteOptions = {}): DatabaseSync {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${opts.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  // Several processes (roles) may share a file in embedded mode: wait instead of SQLITE_BUSY.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

/**
 * Runs fn in a transaction: committed if it returns, rolled back if it throws. BEGIN IMMEDIATE
 * takes the write lock up front so two writers cannot deadlock upgrading read locks. Nested
 * calls use a savepoint, so an inner failure undoes only the inner work. fn must be synchronous:
 * an await inside would let other statements slip into the transaction.
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  if (db.isTransaction) {
    // SQLite resolves a repeated savepoint name to the innermost one, so one name serves all depths.
    const name = 'kit_nested';
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn();
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
      throw error;
    }
  }
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** SQLite's primary result codes for a lock held a moment by another connection or statement. */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

function heldByOther(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  // Extended codes (SQLITE_BUSY_RECOVERY, SQLITE_LOCKED_SHAREDCACHE...) carry the primary one in the low byte.
  return typeof code === 'number' && ((code & 0xff) === SQLITE_BUSY || (code & 0xff) === SQLITE_LOCKED);
}

/** Where no WalCheckpointer is given: a process warning, so that a failure still shows. */
const warnings: WalCopyBackFailures = {
  copyBackFailed: (message) => process.emitWarning(`WAL copy-back failed: ${message}`, 'WalCopyBackWarning'),
};

/**
 * The writer's side of a WAL restart (WalCheckpointer#takeRestart): copies back, on the writer's
 * own connection, the frames committed since the checkpointer's last round, so that the next
 * transaction begins with the WAL all copied and SQLite starts it over.
 *
 * It never throws: the batch that follows must not fail for a WAL left long, and the writer could
 * do nothing else with the error (a fault that also stops writes, a closed database or a full
 * disk, fails the batch itself). A lock held a moment (SQLITE_BUSY, SQLITE_LOCKED: another
 * checkpoint, a statement still reading on this connection) is left to the next round's request.
 * Any other failure goes to `failures` (the file's WalCheckpointer: its stats count them; a
 * warning without one).
 */
export function walCopyBack(db: DatabaseSync, failures: WalCopyBackFailures = warnings): () => void {
  const copyBack = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  return () => {
    try {
      copyBack.get();
    } catch (error) {
      if (!heldByOther(error)) failures.copyBackFailed(String(error));
    }
  };
}

/**
 * `walCopyBack` for a writer on a thread of its own, which cannot reach the file's WalCheckpointer:
 * each call gives back the failure's message (undefined when it went, or was left for a lock), for
 * the writer to pass back with its batch's answer. `failWith` (tests): every call fails so, as a
 * disk fault would, without touching the file.
 */
export function threadWalCopyBack(db: DatabaseSync, failWith?: string): () => string | undefined {
  if (failWith !== undefined) return () => failWith;
  let failure: string | undefined;
  const copyBack = walCopyBack(db, {
    copyBackFailed(message) {
      failure = message;
    },
  });
  return () => {
    failure = undefined;
    copyBack();
    return failure;
  };
}

export {
  WalCheckpointer,
  type WalCheckpoints,
  type WalCopyBackFailures,
  type WalRestarts,
} from './sqlite-wal-checkpointer.ts';

export { SqliteGroupCommit, type GroupCommitOptions, type SyncFile } from './storage/group-commit.ts';
