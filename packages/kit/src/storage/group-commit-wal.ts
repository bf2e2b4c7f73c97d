import { closeSync, existsSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

/**
 * Sets the connection for a group commit that owns its durability and opens its WAL. Durable:
 * whatever an earlier process committed and never synced is synced before the first group
 * commits, and the WAL's directory entry too (SQLite's own directory sync comes at a checkpoint's
 * first WAL sync only). Not before every read: the caller's reads, and SQLite's own at opening,
 * came before, and an answer given from such frames before this sync could be lost with them at a
 * power loss. The descriptor is closed again if anything after its opening throws.
 */
export function openWal(db: DatabaseSync, file: string, durable: boolean): number {
  const mode = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
  if (mode.journal_mode !== 'wal') throw new Error(`${file}: a group commit needs WAL mode`);
  // NORMAL, not OFF: commits still do not sync, but a checkpoint on this connection syncs the WAL
  // before and the file after copying, and a WAL restart syncs its new header.
  db.exec('PRAGMA synchronous = NORMAL');
  // Copy-backs are the checkpointer's (its own connection), never inside a commit.
  db.exec('PRAGMA wal_autocheckpoint = 0');
  // A write transaction opens (creates) the WAL if it is not yet there.
  db.exec('BEGIN IMMEDIATE; COMMIT');
  const walFile = `${file}-wal`;
  if (!existsSync(walFile)) throw new Error(`${walFile}: no WAL to sync`);
  const wal = openSync(walFile, 'r');
  try {
    if (durable) {
      fsyncSync(wal);
      const dir = openSync(dirname(walFile), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    }
  } catch (error) {
    closeSync(wal);
    throw error;
  }
  return wal;
}
