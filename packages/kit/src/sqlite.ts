import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

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

/**
 * The writer's side of a WAL restart (WalCheckpointer#takeRestart): copies back, on the writer's
 * own connection, the frames committed since the checkpointer's last round, so that the next
 * transaction begins with the WAL all copied and SQLite starts it over. Whatever stops the copy
 * (a reader's snapshot, the disk) only leaves the WAL to the next request, never fails the write
 * that follows.
 */
export function walCopyBack(db: DatabaseSync): () => void {
  const copyBack = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  return () => {
    try {
      copyBack.get();
    } catch {
      // the next round's request tries again
    }
  };
}

export { WalCheckpointer, type WalCheckpoints, type WalRestarts } from './sqlite-wal-checkpointer.ts';
