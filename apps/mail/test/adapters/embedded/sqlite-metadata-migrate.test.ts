/** A metadata.db written before lists read stored summaries opens, and lists as it did. */
import { join } from 'node:path';
import t from 'tap';
import { openSqlite } from '@tessera/kit/sqlite';
import { tempDir } from '@tessera/testkit';
import { METADATA_VERSION } from '../../../src/adapters/embedded/sqlite-metadata-migrate.ts';
import { SqliteMetadataStore } from '../../../src/adapters/embedded/sqlite-metadata-store.ts';
import { summaryOf } from '../../../src/core/summary.ts';
import type { StoredMessage } from '../../../src/ports.ts';
import { storedMessage, writeOldMetadata } from '../../helpers/old-metadata.ts';

// The messages and attachments tables as the previous version created them (no summary column).
const OLD_SCHEMA = `
CREATE TABLE messages (
  user_id TEXT NOT NULL, email_id TEXT NOT NULL, folder_id TEXT NOT NULL, thread_id TEXT NOT NULL,
  is_read INTEGER NOT NULL, received_at INTEGER NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (user_id, email_id)
) WITHOUT ROWID;
CREATE TABLE attachments (
  user_id TEXT NOT NULL, email_id TEXT NOT NULL, position INTEGER NOT NULL, filename TEXT NOT NULL,
  content_type TEXT NOT NULL, size INTEGER NOT NULL, blob_key TEXT NOT NULL,
  PRIMARY KEY (user_id, email_id, position)
) WITHOUT ROWID;
`;

const COUNT = 2500; // more than one migration batch

function message(i: number): StoredMessage {
  return storedMessage(i, {
    body: `${'a'.repeat(199)}😀 and \ud83d then ${i}`,
    attachments:
      i % 5 === 0 ? [{ filename: 'f.pdf', content_type: 'application/pdf', size: 9, blob_key: `k${i}` }] : [],
  });
}

function writeOld(path: string, messages: readonly StoredMessage[]): void {
  writeOldMetadata(path, OLD_SCHEMA, (db) => {
    const insert = db.prepare('INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)');
    const attach = db.prepare('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const m of messages) {
      const { user_id, email_id, folder_id, thread_id, is_read, received_at, attachments, ...doc } = m;
      insert.run(user_id, email_id, folder_id, thread_id, is_read ? 1 : 0, received_at, JSON.stringify(doc));
      attachments.forEach((a, i) =>
        attach.run(user_id, email_id, i, a.filename, a.content_type, a.size, a.blob_key),
      );
    }
  });
}

t.test('an old data directory opens, keeps every message, and lists their summaries', async (t) => {
  const dir = tempDir(t, 'mail-migrate-');
  const path = join(dir, 'metadata.db');
  const messages = Array.from({ length: COUNT }, (_, i) => message(i));
  writeOld(path, messages);

  for (const time of ['first', 'second']) {
    const db = openSqlite(path);
    const s = new SqliteMetadataStore(db);
    for (const m of [messages[0], messages[1], messages[COUNT - 1]])
      if (m !== undefined) t.same(await s.message(m.user_id, m.email_id), m, `${time} open: whole`);
    for (const user of ['u0', 'u1', 'u2'])
      for (const folder of ['inbox', 'archive', 'all']) {
        const whole = await s.listMessages(user, folder, { limit: 100 });
        const listed = await s.listSummaries(user, folder, { limit: 100 });
        t.strictSame(listed.summaries, whole.messages.map(summaryOf), `${time} open: ${user} ${folder}`);
        t.equal(listed.next, whole.next);
      }
    const unsummarised = db.prepare("SELECT count(*) AS n FROM messages WHERE summary = ''").get();
    t.same(unsummarised, { n: 0 }, `${time} open: every row has its summary`);
    db.close();
  }

  // A migration cut short: rows still unfilled, the version not yet recorded. The next open
  // fills what is left.
  const cut = openSqlite(path);
  cut.exec("UPDATE messages SET summary = '' WHERE user_id = 'u1'");
  cut.exec('PRAGMA user_version = 0');
  cut.close();

  const db = openSqlite(path);
  t.teardown(() => db.close());
  const s = new SqliteMetadataStore(db);
  t.same(db.prepare("SELECT count(*) AS n FROM messages WHERE summary = ''").get(), { n: 0 });
  t.same(db.prepare('PRAGMA user_version').get(), { user_version: METADATA_VERSION });
  const u1 = await s.listMessages('u1', 'all', { limit: 100 });
  t.strictSame((await s.listSummaries('u1', 'all', { limit: 100 })).summaries, u1.messages.map(summaryOf));
  const fresh = { ...message(COUNT), user_id: 'u0', folder_id: 'inbox' };
  t.equal(await s.insertMessage(fresh), true, 'new messages file into the migrated table');
  t.strictSame((await s.listSummaries('u0', 'inbox', { limit: 1 })).summaries, [summaryOf(fresh)]);
});
