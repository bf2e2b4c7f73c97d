/**
 * Metadata step 2 (sqlite-metadata-migrate.ts): a `WITHOUT ROWID` messages table becomes a rowid
 * table of the same columns, while other processes (of this version or the one before) go on
 * writing to it. Every step is its own short transaction and resumable after a crash:
 * 1. start: the copy `messages_rowid` with its final indexes (kept up by each batch, never built
 *    over the whole table under one lock), and triggers on the old table that log the key of
 *    every row inserted, updated or deleted from then on (`messages_rebuild_log`).
 * 2. copy: rows in key order, a batch a transaction, from the copy's last key.
 * 3. level: logged keys, a batch a transaction: each is deleted from the copy and copied again
 *    from the old table (if it is still there).
 * 4. swap: the keys logged since the last level batch are levelled the same way, the triggers
 *    and the log dropped, the old table renamed `messages_v1` and the copy `messages`. This is
 *    the one transaction that must see both tables still: it holds the write lock for the rows
 *    changed during the last level batch (fewer than one batch at mail's write rates) and two
 *    renames, whatever the size of the table.
 * 5. drop: `messages_v1` is emptied a batch a transaction, then dropped (empty: no page walk).
 * Two processes opening the file at once both run these steps: each step reads its state inside
 * its own BEGIN IMMEDIATE (the old table's kind, the copy's last key), copies with INSERT OR
 * IGNORE, and does nothing once the other process has swapped.
 */
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';

const COPY = 'messages_rowid';
const LOG = 'messages_rebuild_log';
const OLD = 'messages_v1';
const KEY = 'user_id, email_id';
const COLUMNS = 'user_id, email_id, folder_id, thread_id, is_read, received_at, summary, doc';

export interface RebuildSchema {
  /** The CREATE TABLE of the messages table under another name. */
  readonly table: (name: string) => string;
  /** The CREATE INDEX statements of the messages table, on a table of another name. */
  readonly indexes: (table: string) => string;
  readonly batch: number;
  /** Called after each committed copy batch (tests cut a copy short, or start another process, there). */
  readonly afterBatch?: () => void;
}

/** Whether `messages` is still the old WITHOUT ROWID table (read inside each step's transaction). */
function isWithoutRowid(db: DatabaseSync): boolean {
  const row = db
    .prepare("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = 'messages'")
    .get() as { wr: number } | undefined;
  return row?.wr === 1;
}

const TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS messages_rebuild_insert AFTER INSERT ON messages BEGIN
  INSERT OR IGNORE INTO ${LOG} (${KEY}) VALUES (new.user_id, new.email_id); END;
CREATE TRIGGER IF NOT EXISTS messages_rebuild_update AFTER UPDATE ON messages BEGIN
  INSERT OR IGNORE INTO ${LOG} (${KEY}) VALUES (old.user_id, old.email_id);
  INSERT OR IGNORE INTO ${LOG} (${KEY}) VALUES (new.user_id, new.email_id); END;
CREATE TRIGGER IF NOT EXISTS messages_rebuild_delete AFTER DELETE ON messages BEGIN
  INSERT OR IGNORE INTO ${LOG} (${KEY}) VALUES (old.user_id, old.email_id); END;
`;
const DROP_TRIGGERS = `
DROP TRIGGER IF EXISTS messages_rebuild_insert;
DROP TRIGGER IF EXISTS messages_rebuild_update;
DROP TRIGGER IF EXISTS messages_rebuild_delete;
`;

export function rebuildMessages(db: DatabaseSync, schema: RebuildSchema): void {
  const started = transaction(db, () => {
    if (!isWithoutRowid(db)) return false;
    db.exec(schema.table(COPY));
    db.exec(schema.indexes(COPY));
    db.exec(`CREATE TABLE IF NOT EXISTS ${LOG} (
      user_id TEXT NOT NULL, email_id TEXT NOT NULL, PRIMARY KEY (${KEY})) WITHOUT ROWID`);
    db.exec(TRIGGERS);
    return true;
  });
  if (started) {
    copyRows(db, schema);
    levelRows(db, schema.batch);
  }
  dropOld(db, schema.batch);
}

/** Step 2; each batch does nothing once another process has swapped. */
function copyRows(db: DatabaseSync, schema: RebuildSchema): void {
  for (;;) {
    const copied = transaction(db, () => {
      if (!isWithoutRowid(db)) return 0;
      const after = (db
        .prepare(`SELECT ${KEY} FROM ${COPY} ORDER BY user_id DESC, email_id DESC LIMIT 1`)
        .get() as { user_id: string; email_id: string } | undefined) ?? { user_id: '', email_id: '' };
      return Number(
        db
          .prepare(
            `INSERT OR IGNORE INTO ${COPY} (${COLUMNS}) SELECT ${COLUMNS} FROM messages
             WHERE (${KEY}) > (?, ?) ORDER BY ${KEY} LIMIT ?`,
          )
          .run(after.user_id, after.email_id, schema.batch).changes,
      );
    });
    if (copied < schema.batch) return;
    schema.afterBatch?.();
  }
}

/** Levels up to `limit` logged keys (all of them without one); how many were logged. */
function levelLogged(db: DatabaseSync, limit: number): number {
  const keys = `SELECT ${KEY} FROM ${LOG} ORDER BY ${KEY} LIMIT ${limit}`;
  db.exec(`DELETE FROM ${COPY} WHERE (${KEY}) IN (${keys})`);
  db.exec(`INSERT INTO ${COPY} (${COLUMNS}) SELECT ${COLUMNS} FROM messages WHERE (${KEY}) IN (${keys})`);
  return Number(db.prepare(`DELETE FROM ${LOG} WHERE (${KEY}) IN (${keys})`).run().changes);
}

/** Steps 3 and 4. */
function levelRows(db: DatabaseSync, batch: number): void {
  // Rows change at mail's rates, far below a batch's: each pass leaves fewer keys logged.
  for (;;) {
    const levelled = transaction(db, () => (isWithoutRowid(db) ? levelLogged(db, batch) : 0));
    if (levelled < batch) break;
  }
  transaction(db, () => {
    if (!isWithoutRowid(db)) return;
    levelLogged(db, -1);
    db.exec(DROP_TRIGGERS);
    db.exec(`DROP TABLE ${LOG}`);
    db.exec(`ALTER TABLE messages RENAME TO ${OLD}`);
    db.exec(`ALTER TABLE ${COPY} RENAME TO messages`);
  });
}

/** Step 5: the old table and its indexes, emptied in batches, then dropped. */
function dropOld(db: DatabaseSync, batch: number): void {
  const exists = (): boolean =>
    db.prepare("SELECT 1 AS x FROM sqlite_schema WHERE type = 'table' AND name = ?").get(OLD) !== undefined;
  for (;;) {
    const deleted = transaction(db, () =>
      exists()
        ? Number(
            db.prepare(`DELETE FROM ${OLD} WHERE (${KEY}) IN (SELECT ${KEY} FROM ${OLD} LIMIT ?)`).run(batch)
              .changes,
          )
        : 0,
    );
    if (deleted < batch) break;
  }
  transaction(db, () => db.exec(`DROP TABLE IF EXISTS ${OLD}`));
}
