/**
 * Brings a metadata.db written by an older version to the current schema; METADATA_SCHEMA
 * creates a new one whole. `PRAGMA user_version` records the last step done. A step's work is
 * committed in batches (a 1 M-message store is gigabytes: one transaction would hold all of it in
 * the WAL) and is resumable: a crash part way leaves the version unchanged, and the next open
 * does what is left.
 */
import type { DatabaseSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
import { summaryHeaders } from '../../core/summary.ts';
import { messagesIndexes, messagesTable, type MessageDoc } from './sqlite-metadata-rows.ts';
import { rebuildMessages } from './sqlite-messages-rebuild.ts';

/**
 * 1: messages have their list summary (the `summary` column).
 * 2: messages is a rowid table (it was `WITHOUT ROWID`).
 */
export const METADATA_VERSION = 2;
const BATCH = 1000;

export function migrateMetadata(db: DatabaseSync): void {
  const { user_version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  if (user_version >= METADATA_VERSION) return;
  if (user_version < 1) addSummaries(db);
  rebuildMessages(db, { table: messagesTable, indexes: messagesIndexes, batch: BATCH });
  db.exec(`PRAGMA user_version = ${METADATA_VERSION}`);
}

/**
 * Messages filed before lists read stored summaries get theirs from their whole document, in
 * JavaScript as the store makes them at filing (String#slice, not SQL substr, which counts
 * characters differently), so a migrated list answers byte for byte as before. '' marks a row
 * still to fill (a summary is JSON, never empty).
 */
function addSummaries(db: DatabaseSync): void {
  transaction(db, () => {
    const columns = db.prepare('PRAGMA table_info(messages)').all() as unknown as { name: string }[];
    if (!columns.some((c) => c.name === 'summary'))
      db.exec("ALTER TABLE messages ADD COLUMN summary TEXT NOT NULL DEFAULT ''");
  });
  const next = db.prepare(
    "SELECT user_id, email_id, doc FROM messages WHERE (user_id, email_id) > (?, ?) AND summary = '' ORDER BY user_id, email_id LIMIT ?",
  );
  const set = db.prepare('UPDATE messages SET summary = ? WHERE user_id = ? AND email_id = ?');
  let after = { user_id: '', email_id: '' };
  for (;;) {
    const rows = next.all(after.user_id, after.email_id, BATCH) as unknown as {
      user_id: string;
      email_id: string;
      doc: string;
    }[];
    transaction(db, () => {
      for (const row of rows) {
        const summary = summaryHeaders(JSON.parse(row.doc) as MessageDoc);
        set.run(JSON.stringify(summary), row.user_id, row.email_id);
      }
    });
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) return;
    after = last;
  }
}
