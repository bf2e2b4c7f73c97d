/**
 * A metadata.db of version 1 (messages `WITHOUT ROWID`) opens as a rowid table with every row,
 * index and answer as before, also when the copy was cut short and rows changed meanwhile, and
 * when two processes open it at once.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit/sqlite';
import { tempDir } from '@tessera/testkit';
import { METADATA_VERSION } from '../../../src/adapters/embedded/sqlite-metadata-migrate.ts';
import { rebuildMessages } from '../../../src/adapters/embedded/sqlite-messages-rebuild.ts';
import { SqliteMetadataStore } from '../../../src/adapters/embedded/sqlite-metadata-store.ts';
import { summaryHeaders } from '../../../src/core/summary.ts';
import {
  messagesIndexes,
  messagesTable,
  type MessageDoc,
} from '../../../src/adapters/embedded/sqlite-metadata-rows.ts';
import type { StoredMessage } from '../../../src/ports.ts';
import { storedMessage, writeOldMetadata } from '../../helpers/old-metadata.ts';

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
  return storedMessage(i, { thread_id: `t${i % 7}`, body: `${'b'.repeat(3000)} ${i}` });
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
  writeOldMetadata(path, V1_MESSAGES, (db) => {
    const insert = db.prepare(INSERT_V1);
    for (const m of messages) insert.run(...v1Row(m));
  });
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

/** The state a finished rebuild leaves: one rowid messages table with its indexes, nothing else. */
function checkRebuilt(t: Test, db: DatabaseSync, count: number): void {
  t.notMatch(schemaOf(db, 'messages'), /WITHOUT ROWID/, 'a rowid table now');
  for (const index of ['messages_by_folder', 'messages_by_read', 'messages_by_thread'])
    t.match(schemaOf(db, index), /ON "?messages"? /, `${index} is on it`);
  const leftovers = db
    .prepare(
      `SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite%'
       AND (type = 'trigger' OR tbl_name NOT IN (?, ?, ?, ?, ?, ?))`,
    )
    .all('users', 'folders', 'messages', 'attachments', 'thread_ids', 'index_backlog');
  t.same(leftovers, [], 'no copy, log, trigger or old table is left');
  t.same(db.prepare('PRAGMA user_version').get(), { user_version: METADATA_VERSION });
  t.same(db.prepare('SELECT count(*) AS n FROM messages').get(), { n: count });
}

/** The rebuild as the store runs it, with a hook after each copy batch. */
function rebuild(db: DatabaseSync, afterBatch: () => void): void {
  rebuildMessages(db, { table: messagesTable, indexes: messagesIndexes, batch: 1000, afterBatch });
}

const cutShort = new Error('cut short');

t.test('a version 1 file becomes a rowid table with the same rows and answers', async (t) => {
  const dir = tempDir(t);
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
  checkRebuilt(t, db, COUNT);
  t.strictSame(await answers(s), expected, 'lists and threads answer as a new store');
  for (const m of [messages[0], messages[COUNT - 1]])
    if (m !== undefined) t.strictSame(await s.message(m.user_id, m.email_id), m);
  t.equal(await s.insertMessage(message(COUNT)), true, 'new messages file into it');
  t.equal(await s.insertMessage(message(COUNT)), false, 'once');
});

t.test('a copy cut short goes on, with what changed meanwhile inside and past the copied rows', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'metadata.db');
  const messages = Array.from({ length: COUNT }, (_, i) => message(i));
  writeV1(path, messages);
  // A crash after the first batch: 1,000 rows copied in key order (all of u0's and some of u1's).
  const crashed = openSqlite(path);
  t.throws(
    () =>
      rebuild(crashed, () => {
        throw cutShort;
      }),
    cutShort,
  );
  t.same(crashed.prepare('SELECT count(*) AS n FROM messages_rowid').get(), { n: 1000 });
  crashed.close();

  // Then a process of either version writes to the old table: new mail for u0 (its id sorts inside
  // the copied rows, as new mail's time-ordered id does), new mail for u2 (past them), a copied
  // row read and moved, a copied row deleted.
  const insideCopied = message(COUNT + 1);
  const pastCopied = message(COUNT + 3);
  t.same([insideCopied.user_id, pastCopied.user_id], ['u0', 'u2']);
  const [changed, deleted] = messages;
  if (changed === undefined || deleted === undefined) throw new Error('no messages');
  const writer = openSqlite(path);
  for (const m of [insideCopied, pastCopied]) writer.prepare(INSERT_V1).run(...v1Row(m));
  writer
    .prepare(
      "UPDATE messages SET is_read = 1 - is_read, folder_id = 'archive' WHERE user_id = ? AND email_id = ?",
    )
    .run(changed.user_id, changed.email_id);
  writer
    .prepare('DELETE FROM messages WHERE user_id = ? AND email_id = ?')
    .run(deleted.user_id, deleted.email_id);
  writer.close();

  const expectedStore = new SqliteMetadataStore(openSqlite(join(dir, 'reference.db')));
  for (const m of [...messages, insideCopied, pastCopied]) await expectedStore.insertMessage(m);
  await expectedStore.updateMessage(changed.user_id, changed.email_id, {
    is_read: !changed.is_read,
    folder_id: 'archive',
  });
  await expectedStore.deleteMessage(deleted.user_id, deleted.email_id);

  const db = openSqlite(path);
  t.teardown(() => db.close());
  const s = new SqliteMetadataStore(db);
  checkRebuilt(t, db, COUNT + 1);
  t.strictSame(await answers(s), await answers(expectedStore), 'the changes made meanwhile are kept');
  t.strictSame(await s.message(insideCopied.user_id, insideCopied.email_id), insideCopied, 'inside');
  t.strictSame(await s.message(pastCopied.user_id, pastCopied.email_id), pastCopied, 'past');
  t.match(await s.message(changed.user_id, changed.email_id), {
    folder_id: 'archive',
    is_read: !changed.is_read,
  });
  t.equal(await s.message(deleted.user_id, deleted.email_id), undefined, 'the deleted row stays deleted');
});

t.test('processes opening a version 1 file at once all start, with every row', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'metadata.db');
  const messages = Array.from({ length: COUNT }, (_, i) => message(i));
  writeV1(path, messages);
  const reference = new SqliteMetadataStore(openSqlite(join(dir, 'reference.db')));
  for (const m of messages) await reference.insertMessage(m);
  const expected = await answers(reference);

  // The first is part way through its copy when a second starts and crashes after one batch of
  // its own, and a third opens the file and does the rest; then the first goes on.
  const first = openSqlite(path);
  t.teardown(() => first.close());
  let third: SqliteMetadataStore | undefined;
  let batches = 0;
  rebuild(first, () => {
    batches += 1;
    if (batches !== 1) return;
    const second = openSqlite(path);
    t.throws(
      () =>
        rebuild(second, () => {
          throw cutShort;
        }),
      cutShort,
    );
    second.close();
    const db = openSqlite(path);
    t.teardown(() => db.close());
    third = new SqliteMetadataStore(db);
  });
  t.equal(batches, 1, 'the first stopped copying once the third had swapped');
  const firstStore = new SqliteMetadataStore(first);
  checkRebuilt(t, first, COUNT);
  if (third === undefined) throw new Error('the third never opened');
  t.strictSame(await answers(third), expected, 'the third answers with every row');
  t.strictSame(await answers(firstStore), expected, 'and so does the first');
});
