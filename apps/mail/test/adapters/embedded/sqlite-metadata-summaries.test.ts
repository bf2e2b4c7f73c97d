/**
 * The list's stored summaries answer exactly what the whole messages would: every listing of
 * listSummaries is listMessages' through summaryOf, same rows, same cursor.
 */
import t from 'tap';
import { openSqlite } from '@tessera/kit/sqlite';
import { SqliteMetadataStore } from '../../../src/adapters/embedded/sqlite-metadata-store.ts';
import { SNIPPET_LENGTH, summaryOf } from '../../../src/core/summary.ts';
import type { StoredMessage } from '../../../src/ports.ts';

const a = 'a'.repeat(SNIPPET_LENGTH - 1);
/** Bodies whose first SNIPPET_LENGTH code units end inside, before and after a surrogate pair. */
export const TRICKY_BODIES = [
  '',
  'short',
  `${a}😀 after`,
  `${a}b😀`,
  `${'é'.repeat(SNIPPET_LENGTH)}ü`,
  `${'😀'.repeat(SNIPPET_LENGTH)}`,
  `lone \ud83d surrogate and "quotes" \\ \n\t\u0000 controls`,
  'x'.repeat(5000),
];

function message(user: string, i: number, change: Partial<StoredMessage> = {}): StoredMessage {
  const id = `0000000${i}`.slice(-8);
  return {
    user_id: user,
    email_id: `${id}-0000-7000-8000-000000000000`,
    folder_id: ['inbox', 'archive', 'junk', 'trash'][i % 4] ?? 'inbox',
    thread_id: `t${i % 3}`,
    message_id: `${id}@x`,
    references: [],
    from: { name: i % 2 === 0 ? '' : 'Ann "A" Lee', email: 'a@x.io' },
    to: [{ name: '', email: 'b@y.io' }],
    cc: i % 3 === 0 ? [] : [{ name: 'Cé', email: 'c@y.io' }],
    bcc: [],
    subject: `s${i} ✓`,
    body: TRICKY_BODIES[i % TRICKY_BODIES.length] ?? '',
    is_read: i % 5 < 2,
    received_at: 1_700_000_000_000 + i,
    attachments:
      i % 2 === 0 ? [] : [{ filename: 'f.txt', content_type: 'text/plain', size: 3, blob_key: `k${i}` }],
    ...change,
  };
}

t.test('every listing of summaries is the listing of whole messages, summarised', async (t) => {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  const s = new SqliteMetadataStore(db, () => 1);
  for (const user of ['alice', 'bob']) {
    await s.ensureUser(user);
    for (let i = 0; i < 40; i++)
      await s.insertMessage(message(user, i, user === 'bob' ? { subject: 'b' } : {}));
  }
  await s.updateMessage('alice', message('alice', 5).email_id, { is_read: true, folder_id: 'archive' });
  await s.deleteMessage('alice', message('alice', 7).email_id);
  let listings = 0;
  for (const folder of ['inbox', 'archive', 'junk', 'trash', 'all', 'nope'])
    for (const isRead of [undefined, true, false])
      for (const limit of [1, 3, 100]) {
        const options = { limit, ...(isRead === undefined ? {} : { isRead }) };
        let before: string | undefined;
        for (let pages = 0; pages < 50; pages++) {
          const paged = { ...options, ...(before === undefined ? {} : { before }) };
          const whole = await s.listMessages('alice', folder, paged);
          const summaries = await s.listSummaries('alice', folder, paged);
          const expected = whole.messages.map(summaryOf);
          t.strictSame(
            summaries,
            whole.next === undefined ? { summaries: expected } : { summaries: expected, next: whole.next },
          );
          listings++;
          before = summaries.next;
          if (before === undefined) break;
        }
      }
  t.ok(listings > 100);
  const inbox = await s.listSummaries('alice', 'inbox', { limit: 100 });
  t.same(
    inbox.summaries.map((x) => x.snippet),
    inbox.summaries.map((x) =>
      TRICKY_BODIES[Number(x.email_id.slice(0, 8)) % TRICKY_BODIES.length]?.slice(0, SNIPPET_LENGTH),
    ),
    'snippets are String#slice of the body, surrogate halves and all',
  );
  t.same(
    inbox.summaries.map((x) => x.has_attachments),
    inbox.summaries.map((x) => Number(x.email_id.slice(0, 8)) % 2 === 1),
  );
});

t.test(
  'a row without its summary (written by the version before, beside this one) lists from its document',
  async (t) => {
    const db = openSqlite(':memory:');
    t.teardown(() => db.close());
    const s = new SqliteMetadataStore(db, () => 1);
    await s.ensureUser('alice');
    for (let i = 0; i < 6; i++) await s.insertMessage(message('alice', i, { folder_id: 'inbox' }));
    db.prepare("UPDATE messages SET summary = '' WHERE email_id = ?").run(message('alice', 3).email_id);
    const whole = await s.listMessages('alice', 'inbox', { limit: 10 });
    t.strictSame(await s.listSummaries('alice', 'inbox', { limit: 10 }), {
      summaries: whole.messages.map(summaryOf),
    });
  },
);
