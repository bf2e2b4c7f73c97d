import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit/sqlite';
import { SqliteMetadataStore } from '../../../src/adapters/embedded/sqlite-metadata-store.ts';
import type { StoredMessage } from '../../../src/ports.ts';

function store(t: Test): SqliteMetadataStore {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  return new SqliteMetadataStore(db, () => 1);
}

function message(user: string, emailId: string, change: Partial<StoredMessage> = {}): StoredMessage {
  return {
    user_id: user,
    email_id: emailId,
    folder_id: 'inbox',
    thread_id: emailId,
    message_id: `${emailId}@x`,
    references: [],
    from: { name: '', email: 'a@x.io' },
    to: [],
    cc: [],
    bcc: [],
    subject: 's',
    body: 'b',
    is_read: false,
    received_at: 1,
    attachments: [{ filename: 'f.txt', content_type: 'text/plain', size: 3, blob_key: 'k' }],
    ...change,
  };
}

t.test('mailboxes are created once, with their folders', async (t) => {
  const s = store(t);
  t.equal(await s.ensureUser('alice'), true);
  t.equal(await s.ensureUser('alice'), false);
  t.equal((await s.folders('alice')).length, 8);
  t.equal(await s.hasUser('bob'), false);
  t.same(await s.folders('bob'), []);
});

t.test('a message is stored once per user and read back whole, only from its partition', async (t) => {
  const s = store(t);
  const m = message('alice', 'e1', { auth: { spf: 'pass', dkim: 'none', dmarc: 'none' }, html: '<p>b</p>' });
  t.equal(await s.insertMessage(m), true);
  t.equal(await s.insertMessage({ ...m, subject: 'changed' }), false, 'a redelivered copy changes nothing');
  t.same(await s.message('alice', 'e1'), m);
  t.equal(await s.message('bob', 'e1'), undefined);
  t.equal(
    await s.insertMessage(message('bob', 'e1')),
    true,
    'the same email_id in another partition is another row',
  );
  t.same(await s.updateMessage('eve', 'e1', { is_read: true }), undefined);
  t.equal(await s.deleteMessage('eve', 'e1'), false);
  t.equal((await s.message('alice', 'e1'))?.is_read, false);
});

t.test('thread links keep their first thread', async (t) => {
  const s = store(t);
  await s.linkThread('alice', 'T1', ['a@x', 'b@x']);
  await s.linkThread('alice', 'T2', ['b@x', 'c@x']);
  t.same(
    [...(await s.threadsOf('alice', ['a@x', 'b@x', 'c@x', 'd@x']))],
    [
      ['a@x', 'T1'],
      ['b@x', 'T1'],
      ['c@x', 'T2'],
    ],
  );
  t.same([...(await s.threadsOf('bob', ['a@x']))], []);
});

t.test('copies filed together join their threads in order, as one by one', async (t) => {
  const s = store(t);
  const copy = (user: string, emailId: string, inReplyTo?: string) => {
    const m: { -readonly [K in keyof StoredMessage]?: StoredMessage[K] } = {
      ...message(user, emailId, { message_id: `${emailId}@x` }),
    };
    delete m.thread_id; // a new copy has no thread yet: filing resolves it
    return {
      message: m as Omit<StoredMessage, 'thread_id'>,
      headers: {
        messageId: `${emailId}@x`,
        inReplyTo,
        references: inReplyTo === undefined ? [] : [inReplyTo],
      },
    };
  };
  const filed = await s.fileCopies([
    copy('alice', 'e1'),
    copy('alice', 'e2', 'e1@x'), // a reply to the copy before it in the same call
    copy('bob', 'e2', 'e1@x'), // bob has no e1: a thread of his own
    copy('alice', 'e1'), // a redelivered copy: stored once
  ]);
  t.same(filed, [
    { threadId: 'e1', inserted: true },
    { threadId: 'e1', inserted: true },
    { threadId: 'e2', inserted: true },
    { threadId: 'e1', inserted: false },
  ]);
  t.same(
    (await s.thread('alice', 'e1')).map((m) => m.email_id),
    ['e1', 'e2'],
  );
  t.equal((await s.message('bob', 'e2'))?.thread_id, 'e2');
  t.same((await s.message('alice', 'e2'))?.attachments, message('alice', 'e2').attachments);
});
