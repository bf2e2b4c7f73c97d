/**
 * A metadata.db of version 1 (messages `WITHOUT ROWID`) opens as a rowid table with every row,
 * index and answer as before, also when the copy was cut short and rows changed meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit/sqlite';
import { METADATA_VERSION } from '../../../src/adapters/embedded/sqlite-metadata-migrate.ts';
import { SqliteMetadataStore } from '../../../src/adapters/embedded/sqlite-metadata-store.ts';
import { summaryHeaders } from '../../../src/core/summary.ts';
import type { MessageDoc } from '../../../src/adapters/embedded/sqlite-metadata-rows.ts';
import type { StoredMessage } from '../../../src/ports.ts';

// The messages table and its indexes as version 1 created them.
const V1_MESSAGES = `
CREATE TABLE messages (
  user_id TEXT NOT NULL, email_id TEXT NOT NULL, folder_id TEXT NOT NULL, thread_id TEXT NOT NULL,
  is_read INTEGER NOT NULL, received_at INTEGER NOT NULL, summary TEXT NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (user_id, email_id)
) WITHOUT ROWID;
CREATE INDEX messages_folder ON messages (user_id, folder_id, email_id);
CREATE INDEX messages_read ON messages (user_id, folder_id, is_read, email_id);
CREATE INDEX messages_thread ON messages (user_id, thread_id, email_id);
PRAGMA user_version = 1;
`;

const COUNT = 2300; // more than two copy batches

function message(i: number): StoredMessage {
  return {
    user_id: `u${i % 3}`,
    email_id: `${String(i).padStart(8, '0')}-0000-7000-8000-000000000000`,
    folder_id: i % 4 === 0 ? 'archive' : 'inbox',
    thread_id: `t${i % 7}`,
    message_id: `${i}@x`,
    references: [],
    from: { name: 'Zoë', email: 'z@x.io' },
    to: [{ name: '', email: 'b@y.io' }],
    cc: [],
    bcc: [],
    subject: `s${i}`,
    body: `${'b'.repeat(3000)} ${i}`,
    is_read: i % 2 === 0,
    received_at: 1_700_000_000_000 + i,
    attachments: [],
  };
}

const PLACE = new Set([
  'user_id',
  'email_id',
  'folder_id',
  'thread_id',
  'is_read',
  'received_at',
  'attachments',
]);

/** A message as version 1 stored it: its place columns, its summary, the rest as the document. */
function v1Row(m: StoredMessage): (string | number)[] {
  const doc = Object.fromEntries(Object.entries(m).filter(([k]) => !PLACE.has(k))) as MessageDoc;
  const place = [m.user_id, m.email_id, m.folder_id, m.thread_id, m.is_read ? 1 : 0, m.received_at];
  return [...place, JSON.stringify(summaryHeaders(doc)), JSON.stringify(doc)];
}

const INSERT_V1 = 'INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

function writeV1(path: string, messages: readonly StoredMessage[]): void {
  const db = openSqlite(path);
  db.exec(V1_MESSAGES);
  const insert = db.prepare(INSERT_V1);
  db.exec('BEGIN');
  for (const m of messages) insert.run(...v1Row(m));
  db.exec('COMMIT');
  db.close();
}

const schemaOf = (db: DatabaseSync, name: string) =>
  (db.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').get(name) as { sql: string } | undefined)?.sql;

async function answers(s: SqliteMetadataStore): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const user of ['u0', 'u1', 'u2']) {
    for (const folder of ['inbox', 'archive', 'all']) {
      out.push(await s.listMessages(user, folder, { limit: 50 }));
      out.push(await s.listSummaries(user, folder, { limit: 50, isRead: false }));
    }
    out.push(await s.thread(user, 't3'));
  }
  return out;
}

t.test('a version 1 file becomes a rowid table with the same rows and answers', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mail-rebuild-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const messages = Array.from({ length: COUNT }, (_, i) => message(i));
  // The expected answers: the same messages filed by this version.
  const reference = new SqliteMetadataStore(openSqlite(join(dir, 'reference.db')));
  for (const m of messages) await reference.insertMessage(m);
  const expected = await answers(reference);

  const path = join(dir, 'metadata.db');
  writeV1(path, messages);
  const db = openSqlite(path);
  t.teardown(() => db.close());
  const s = new SqliteMetadataStore(db);
  t.notMatch(schemaOf(db, 'messages'), /WITHOUT ROWID/, 'a rowid table now');
  t.equal(schemaOf(db, 'messages_rowid'), undefined, 'the copy is renamed');
  for (const index of ['messages_folder', 'messages_read', 'messages_thread'])
    t.match(schemaOf(db, index), /ON "?messages"? /, `${index} is on it`);
  t.same(db.prepare('PRAGMA user_version').get(), { user_version: METADATA_VERSION });
  t.same(db.prepare('SELECT count(*) AS n FROM messages').get(), { n: COUNT });
  t.strictSame(await answers(s), expected, 'lists and threads answer as a new store');
  for (const m of [messages[0], messages[COUNT - 1]])
    if (m !== undefined) t.strictSame(await s.message(m.user_id, m.email_id), m);
  t.equal(await s.insertMessage(message(COUNT)), true, 'new messages file into it');
  t.equal(await s.insertMessage(message(COUNT)), false, 'once');
});

t.test('a copy cut short goes on, with what changed meanwhile', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mail-rebuild-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'metadata.db');
  const messages = Array.from({ length: COUNT }, (_, i) => message(i));
  writeV1(path, messages);
  // The first 1,500 rows (in key order) were copied before a crash; then the old table changed:
  // a copied row read and moved, a copied row deleted, a new row.
  const old = openSqlite(path);
  old.exec(`CREATE TABLE messages_rowid (user_id TEXT NOT NULL, email_id TEXT NOT NULL, folder_id TEXT NOT NULL,
    thread_id TEXT NOT NULL, is_read INTEGER NOT NULL, received_at INTEGER NOT NULL, summary TEXT NOT NULL,
    doc TEXT NOT NULL, PRIMARY KEY (user_id, email_id))`);
  old.exec('INSERT INTO messages_rowid SELECT * FROM messages ORDER BY user_id, email_id LIMIT 1500');
  const copied = old
    .prepare('SELECT user_id, email_id FROM messages_rowid ORDER BY rowid LIMIT 2')
    .all() as unknown as {
    user_id: string;
    email_id: string;
  }[];
  const [changed, deleted] = copied;
  if (changed === undefined || deleted === undefined) throw new Error('nothing copied');
  old
    .prepare(
      "UPDATE messages SET is_read = 1 - is_read, folder_id = 'archive' WHERE user_id = ? AND email_id = ?",
    )
    .run(changed.user_id, changed.email_id);
  old
    .prepare('DELETE FROM messages WHERE user_id = ? AND email_id = ?')
    .run(deleted.user_id, deleted.email_id);
  old.close();
  const added = message(COUNT);
  const expectedStore = new SqliteMetadataStore(openSqlite(join(dir, 'reference.db')));
  for (const m of [...messages, added]) await expectedStore.insertMessage(m);
  const before = await expectedStore.message(changed.user_id, changed.email_id);
  if (before === undefined) throw new Error('no message');
  await expectedStore.updateMessage(changed.user_id, changed.email_id, {
    is_read: !before.is_read,
    folder_id: 'archive',
  });
  await expectedStore.deleteMessage(deleted.user_id, deleted.email_id);

  const writer = openSqlite(path);
  writer.prepare(INSERT_V1).run(...v1Row(added));
  writer.close();

  const db = openSqlite(path);
  t.teardown(() => db.close());
  const s = new SqliteMetadataStore(db);
  t.notMatch(schemaOf(db, 'messages'), /WITHOUT ROWID/);
  t.same(db.prepare('SELECT count(*) AS n FROM messages').get(), { n: COUNT });
  t.strictSame(await answers(s), await answers(expectedStore), 'the changes made meanwhile are kept');
  t.equal(await s.message(deleted.user_id, deleted.email_id), undefined, 'the deleted row stays deleted');
});
