/**
 * What the metadata migration tests share: numbered stored messages spread over three users and
 * two folders, and a metadata.db written as an earlier version laid it out (its schema, its rows
 * in one transaction), for the current store to open.
 */
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit/sqlite';
import type { StoredMessage } from '../../src/ports.ts';

/** Message `i`: user `u<i mod 3>`, every fourth in Archive, every other read; `change` on top. */
export function storedMessage(i: number, change: Partial<StoredMessage> = {}): StoredMessage {
  return {
    user_id: `u${i % 3}`,
    email_id: `${String(i).padStart(8, '0')}-0000-7000-8000-000000000000`,
    folder_id: i % 4 === 0 ? 'archive' : 'inbox',
    thread_id: `t${i}`,
    message_id: `${i}@x`,
    references: [],
    from: { name: 'Zoë', email: 'z@x.io' },
    to: [{ name: '', email: 'b@y.io' }],
    cc: [],
    bcc: [],
    subject: `s${i}`,
    body: `body ${i}`,
    is_read: i % 2 === 0,
    received_at: 1_700_000_000_000 + i,
    attachments: [],
    ...change,
  };
}

/** A metadata.db at `path` created by `schema`, then filled by `fill` in one transaction. */
export function writeOldMetadata(path: string, schema: string, fill: (db: DatabaseSync) => void): void {
  const db = openSqlite(path);
  try {
    db.exec(schema);
    db.exec('BEGIN');
    fill(db);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}
