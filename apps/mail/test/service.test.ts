import t from 'tap';
import { ProblemError } from '@tessera/kit';
import { servfail, startTestMail } from './helpers/mail.ts';

t.test(
  'same-domain mail is delivered without SMTP, spam-checked, and an unknown local user bounces',
  async (t) => {
    const mail = await startTestMail(t, { extra: { smtpIn: false } });
    await mail.service.ensureMailbox('bob');
    await mail.service.send('alice', {
      to: [
        { name: 'Bob', email: 'bob@tessera.local' },
        { name: '', email: 'ghost@tessera.local' },
      ],
      cc: [{ name: '', email: 'bob@example.org' }],
      subject: 'Hi Bob',
      body: 'Coffee?',
    });
    await mail.settle();
    const bob = await mail.service.listMessages('bob', 'inbox', { limit: 10 });
    t.equal(bob.messages.length, 1, 'one copy although Bob is named twice (two local domains)');
    t.match(bob.messages[0], { subject: 'Hi Bob', from: { email: 'alice@tessera.local' }, spam_score: 0 });
    const alice = await mail.service.listMessages('alice', 'inbox', { limit: 10 });
    t.equal(alice.messages.length, 1);
    t.match(alice.messages[0]?.body, /ghost@tessera\.local/);

    await mail.service.send('alice', {
      to: [{ name: '', email: 'bob@tessera.local' }],
      subject: 'x',
      body: 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X',
    });
    await mail.settle();
    t.equal(
      (await mail.service.listMessages('bob', 'junk', { limit: 10 })).messages.length,
      1,
      'local mail is spam-checked too',
    );
  },
);

t.test('a reply with a changed subject stays in its thread, for both users', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('bob');
  const first = await mail.service.send('alice', {
    to: [{ name: '', email: 'bob@tessera.local' }],
    subject: 'Plan',
    body: 'v1',
  });
  await mail.settle();
  const received = (await mail.service.listMessages('bob', 'inbox', { limit: 1 })).messages[0];
  if (received === undefined) throw new Error('not delivered');
  t.equal(received.message_id, first.message_id);
  const reply = await mail.service.send('bob', {
    to: [{ name: '', email: 'alice@tessera.local' }],
    subject: 'Completely different subject',
    body: 'ok',
    in_reply_to: `<${received.message_id}>`,
    references: [received.message_id],
  });
  t.equal(reply.thread_id, received.thread_id, "bob's reply joins bob's thread");
  await mail.settle();
  const thread = await mail.service.thread('alice', first.thread_id);
  t.same(
    thread.map((m) => m.subject),
    ['Plan', 'Completely different subject'],
  );
  await t.rejects(
    mail.service.thread('bob', first.thread_id),
    { code: 'MAIL_THREAD_NOT_FOUND' },
    "alice's thread id is not bob's",
  );
});

t.test('folders: the RFC 6154 set plus Inbox, custom folders, and the rules on special ones', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  const folders = await mail.service.folders('alice');
  t.same(
    folders.map((f) => f.name),
    ['Inbox', 'All', 'Archive', 'Drafts', 'Flagged', 'Junk', 'Sent', 'Trash'],
  );
  t.ok(folders.every((f) => f.user_id === 'alice'));
  const work = await mail.service.createFolder('alice', 'Work');
  await t.rejects(mail.service.createFolder('alice', 'work'), { code: 'MAIL_FOLDER_EXISTS' });
  await t.rejects(mail.service.createFolder('alice', 'Junk'), { code: 'MAIL_INVALID_FOLDER_NAME' });
  await t.rejects(mail.service.renameFolder('alice', 'inbox', 'In'), { code: 'MAIL_SPECIAL_FOLDER' });
  await t.rejects(mail.service.deleteFolder('alice', 'sent'), { code: 'MAIL_SPECIAL_FOLDER' });
  t.equal((await mail.service.renameFolder('alice', work.id, 'Projects')).name, 'Projects');
  await t.rejects(mail.service.renameFolder('bob', work.id, 'Mine'), { code: 'MAIL_FOLDER_NOT_FOUND' });

  const sent = await mail.service.send('alice', {
    to: [{ name: '', email: 'x@remote.test' }],
    subject: 's',
    body: 'b',
  });
  await mail.service.updateMessage('alice', sent.email_id, { folder_id: work.id });
  await mail.service.deleteFolder('alice', work.id);
  t.equal(
    (await mail.service.message('alice', sent.email_id)).folder_id,
    'trash',
    "a deleted folder's mail goes to Trash",
  );
});

t.test(
  'listing: newest first, cursor pages, read filter, All; delete moves to Trash then removes',
  async (t) => {
    const mail = await startTestMail(t, { resolver: servfail, extra: { smtpIn: false } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (
          await mail.service.send('alice', {
            to: [{ name: '', email: 'x@remote.test' }],
            subject: `m${i}`,
            body: 'b',
          })
        ).email_id,
      );
    }
    const page1 = await mail.service.listMessages('alice', 'sent', { limit: 2 });
    t.same(
      page1.messages.map((m) => m.subject),
      ['m4', 'm3'],
    );
    const page2 = await mail.service.listMessages('alice', 'sent', { limit: 2, cursor: page1.next });
    const page3 = await mail.service.listMessages('alice', 'sent', { limit: 2, cursor: page2.next });
    t.same(
      [...page2.messages, ...page3.messages].map((m) => m.subject),
      ['m2', 'm1', 'm0'],
    );
    t.equal(page3.next, undefined, 'the last page has no cursor');
    await t.rejects(mail.service.listMessages('alice', 'sent', { limit: 2, cursor: 'nope' }), {
      code: 'MAIL_BAD_CURSOR',
    });

    await mail.service.updateMessage('alice', ids[1] ?? '', { is_read: false });
    const unread = await mail.service.listMessages('alice', 'sent', { limit: 10, isRead: false });
    t.same(
      unread.messages.map((m) => m.subject),
      ['m1'],
    );
    t.equal((await mail.service.listMessages('alice', 'all', { limit: 10 })).messages.length, 5);

    t.same(await mail.service.deleteMessage('alice', ids[0] ?? ''), { deleted: false });
    t.equal((await mail.service.message('alice', ids[0] ?? '')).folder_id, 'trash');
    t.equal(
      (await mail.service.listMessages('alice', 'all', { limit: 10 })).messages.length,
      4,
      'All leaves Trash out',
    );
    t.same(await mail.service.deleteMessage('alice', ids[0] ?? ''), { deleted: true });
    await t.rejects(mail.service.message('alice', ids[0] ?? ''), { code: 'MAIL_MESSAGE_NOT_FOUND' });
    await mail.settle();
    t.same(
      (await mail.service.search('alice', 'subject:m0', { limit: 10 })).messages,
      [],
      'removed from the index too',
    );
  },
);

t.test('a user sees only their own mail', async (t) => {
  const mail = await startTestMail(t, { resolver: servfail, extra: { smtpIn: false } });
  const sent = await mail.service.send('alice', {
    to: [{ name: '', email: 'x@remote.test' }],
    subject: 'secret plans',
    body: 'b',
    attachments: [
      { filename: 'a.txt', content_type: 'text/plain', content: Buffer.from('hi').toString('base64') },
    ],
  });
  await mail.settle();
  await t.rejects(mail.service.message('eve', sent.email_id), { code: 'MAIL_MESSAGE_NOT_FOUND' });
  await t.rejects(mail.service.attachment('eve', sent.email_id, 'a.txt'), { code: 'MAIL_MESSAGE_NOT_FOUND' });
  await t.rejects(mail.service.updateMessage('eve', sent.email_id, { is_read: false }), {
    code: 'MAIL_MESSAGE_NOT_FOUND',
  });
  await t.rejects(mail.service.deleteMessage('eve', sent.email_id), { code: 'MAIL_MESSAGE_NOT_FOUND' });
  t.same((await mail.service.search('eve', 'secret', { limit: 10 })).messages, []);
  t.same((await mail.service.search('alice', 'secret', { limit: 10 })).messages.length, 1);
  t.same((await mail.service.listMessages('eve', 'sent', { limit: 10 })).messages, []);
  t.same(await mail.service.poll('eve', 0, { waitMs: 0, limit: 10 }), []);
});

t.test('sending validates before anything is stored', async (t) => {
  const mail = await startTestMail(t, {
    env: { MAIL_ATTACHMENT_LIMIT_BYTES: '10' },
    extra: { smtpIn: false },
  });
  const cases: [object, string, string][] = [
    [{ subject: 's', body: 'b' }, 'MAIL_NO_RECIPIENT', 'to'],
    [
      { to: [{ name: '', email: 'not an address' }], subject: 's', body: 'b' },
      'MAIL_INVALID_ADDRESS',
      'to[0].email',
    ],
    [
      {
        to: [{ name: '', email: 'x@remote.test' }],
        subject: 's',
        body: 'b',
        attachments: [
          {
            filename: 'big.bin',
            content_type: 'application/octet-stream',
            content: Buffer.alloc(11).toString('base64'),
          },
        ],
      },
      'MAIL_ATTACHMENT_TOO_LARGE',
      'attachments',
    ],
    [
      {
        to: [{ name: '', email: 'x@remote.test' }],
        subject: 's',
        body: 'b',
        attachments: [{ filename: 'a', content_type: 'text/plain', content: '!!!' }],
      },
      'MAIL_INVALID_FIELD',
      'attachments[0].content',
    ],
  ];
  for (const [input, code, field] of cases) {
    const error = await mail.service.send('alice', input as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.type(error, ProblemError);
    t.match(error, { code, status: 400, extra: { field } }, code);
  }
  t.same((await mail.service.listMessages('alice', 'sent', { limit: 10 })).messages, []);
  t.same(await mail.ports.queue.stats('mail.outbound'), { size: 0, oldestAgeMs: 0 });
});

t.test('the attachment limit depends on the account type', async (t) => {
  const mail = await startTestMail(t, {
    env: { MAIL_ATTACHMENT_LIMIT_BYTES: '10', MAIL_BUSINESS_ATTACHMENT_LIMIT_BYTES: '20' },
    resolver: servfail,
    extra: { smtpIn: false },
  });
  const withAttachment = (size: number) => ({
    to: [{ name: '', email: 'x@remote.test' }],
    subject: 's',
    body: 'b',
    attachments: [
      {
        filename: 'a.bin',
        content_type: 'application/octet-stream',
        content: Buffer.alloc(size).toString('base64'),
      },
    ],
  });
  await t.rejects(mail.service.send('alice', withAttachment(15)), {
    code: 'MAIL_ATTACHMENT_TOO_LARGE',
    extra: { limit: 10 },
  });
  await mail.service.setAccountType('alice', 'business');
  await t.resolves(mail.service.send('alice', withAttachment(15)));
  await t.rejects(mail.service.send('alice', withAttachment(21)), {
    code: 'MAIL_ATTACHMENT_TOO_LARGE',
    extra: { limit: 20 },
  });
});

t.test('long poll: waits for the next event and returns what was missed', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('bob');
  const waiting = mail.service.poll('bob', 0, { waitMs: 60_000, limit: 10 });
  await mail.service.send('alice', {
    to: [{ name: '', email: 'bob@tessera.local' }],
    subject: 's',
    body: 'b',
  });
  await mail.settle();
  const events = await waiting;
  t.match(events, [{ event: { type: 'message.new', folder_id: 'inbox' } }]);
  const last = events.at(-1)?.seq ?? 0;
  t.same(await mail.service.poll('bob', last, { waitMs: 0, limit: 10 }), [], 'nothing after the last seen');
});
