/**
 * Metadata step 2 (sqlite-metadata-migrate.ts): a `WITHOUT ROWID` messages table becomes a rowid
 * table of the same columns. Rows are copied into `messages_rowid` in key order, a batch a
 * transaction (resumable: a crash part way leaves the copy to go on from its last key). The last
 * transaction brings the copy level with the old table — rows another process inserted,
 * changed or deleted meanwhile; only those are written — then drops the old table (and its
 * indexes), renames the copy and builds the indexes on it.
 */
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';

const COPY = 'messages_rowid';
const COLUMNS = 'user_id, email_id, folder_id, thread_id, is_read, received_at, summary, doc';

export interface RebuildSchema {
  /** The CREATE TABLE of the messages table under another name. */
  readonly table: (name: string) => string;
  /** The CREATE INDEX statements of the messages table. */
  readonly indexes: string;
  readonly batch: number;
}

function isWithoutRowid(db: DatabaseSync): boolean {
  const row = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'messages'").get() as
    { sql: string } | undefined;
  return row !== undefined && /WITHOUT\s+ROWID\s*$/i.test(row.sql.trim());
}

export function rebuildMessages(db: DatabaseSync, schema: RebuildSchema): void {
  if (!isWithoutRowid(db)) return;
  db.exec(schema.table(COPY));
  const last = db.prepare(
    `SELECT user_id, email_id FROM ${COPY} ORDER BY user_id DESC, email_id DESC LIMIT 1`,
  );
  const copy = db.prepare(
    `INSERT INTO ${COPY} (${COLUMNS}) SELECT ${COLUMNS} FROM messages
     WHERE (user_id, email_id) > (?, ?) ORDER BY user_id, email_id LIMIT ?`,
  );
  for (;;) {
    const after = (last.get() as { user_id: string; email_id: string } | undefined) ?? {
      user_id: '',
      email_id: '',
    };
    const copied = transaction(db, () => copy.run(after.user_id, after.email_id, schema.batch).changes);
    if (copied < schema.batch) break;
  }
  transaction(db, () => {
    // What changed since its batch was copied: rows inserted or updated, then rows deleted.
    db.exec(`INSERT OR REPLACE INTO ${COPY} (${COLUMNS})
      SELECT ${COLUMNS.split(', ')
        .map((c) => `m.${c}`)
        .join(', ')} FROM messages m LEFT JOIN ${COPY} c USING (user_id, email_id)
      WHERE c.user_id IS NULL OR c.folder_id IS NOT m.folder_id OR c.thread_id IS NOT m.thread_id
        OR c.is_read IS NOT m.is_read OR c.received_at IS NOT m.received_at
        OR c.summary IS NOT m.summary OR c.doc IS NOT m.doc`);
    db.exec(`DELETE FROM ${COPY} WHERE NOT EXISTS
      (SELECT 1 FROM messages m WHERE m.user_id = ${COPY}.user_id AND m.email_id = ${COPY}.email_id)`);
    db.exec('DROP TABLE messages');
    db.exec(`ALTER TABLE ${COPY} RENAME TO messages`);
    db.exec(schema.indexes);
  });
}
