import t from 'tap';
import nodemailer from 'nodemailer';
import { text } from 'node:stream/consumers';
import { openEmbeddedMail } from '../../src/adapters/embedded/open-embedded.ts';
import { rawKey } from '../../src/blob-keys.ts';
import { TOPIC } from '../../src/core/events.ts';
import type { MetadataStore } from '../../src/ports.ts';
import { startSmtpIn } from '../../src/roles/smtp-in.ts';
import { FakeClock, startTestMail, tempDir } from '../helpers/mail.ts';

function client(port: number) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
}

interface SmtpFailure {
  responseCode?: number;
  response?: string;
}

t.test(
  'mail sent over SMTP appears in the Inbox, with its attachment in the blob store, and is searchable',
  async (t) => {
    const mail = await startTestMail(t);
    await mail.service.ensureMailbox('alice');
    const port = mail.smtpIn?.port ?? 0;
    const info = await client(port).sendMail({
      from: 'Bob Builder <bob@remote.test>',
      to: 'alice@tessera.local',
      subject: 'Quarterly report',
      text: 'The numbers are in, see the spreadsheet.',
      messageId: '<report-1@remote.test>',
      attachments: [{ filename: 'report.csv', content: 'region,total\nnorth,42\n' }],
    });
    t.match(info.response, /^250 2\.0\.0 Ok: queued as [0-9a-f-]{36}/);

    t.ok((await mail.settle()) >= 1, 'the worker filed and indexed the message');
    const inbox = await mail.service.listMessages('alice', 'inbox', { limit: 10 });
    t.equal(inbox.messages.length, 1);
    const [stored] = inbox.messages;
    if (stored === undefined) throw new Error('no message');
    t.same(
      (await mail.service.search('alice', 'subject:quarterly', { limit: 10 })).messages.map(
        (m) => m.email_id,
      ),
      [stored.email_id],
      'found by its subject',
    );
    t.match(stored, {
      user_id: 'alice',
      from: { name: 'Bob Builder', email: 'bob@remote.test' },
      to: [{ email: 'alice@tessera.local' }],
      subject: 'Quarterly report',
      is_read: false,
      message_id: 'report-1@remote.test',
      attachments: [{ filename: 'report.csv', content_type: 'text/csv', size: 22 }],
    });
    t.match(stored.body, /The numbers are in/);
    t.equal(stored.auth?.spf, 'none', 'the SPF result is recorded (no record published)');
    t.match(stored.auth?.header, /Authentication-Results: tessera\.local;/);

    const attachment = await mail.service.attachment('alice', stored.email_id, 'report.csv');
    t.equal(
      await text(attachment.stream),
      'region,total\nnorth,42\n',
      'the attachment streams back from the blob store',
    );
    t.match(stored.attachments[0]?.blob_key, /^att\//);

    const found = await mail.service.search('alice', 'numbers has:attachment from:bob', { limit: 10 });
    t.same(
      found.messages.map((m) => m.email_id),
      [stored.email_id],
    );
    t.same((await mail.service.search('alice', 'subject:invoice', { limit: 10 })).messages, []);

    const events = await mail.service.poll('alice', 0, { waitMs: 0, limit: 10 });
    t.match(events, [{ event: { type: 'message.new', email_id: stored.email_id, folder_id: 'inbox' } }]);
  },
);

t.test(
  'smtp-in refuses unknown local users (550 5.1.1), other domains (no open relay) and oversized mail (552)',
  async (t) => {
    const mail = await startTestMail(t, { env: { MAIL_MAX_MESSAGE_BYTES: String(64 * 1024) } });
    await mail.service.ensureMailbox('alice');
    const smtp = client(mail.smtpIn?.port ?? 0);
    const send = (to: string, text = 'hello') =>
      smtp.sendMail({ from: 'bob@remote.test', to, subject: 's', text }).then(
        () => undefined,
        (error: unknown) => error as SmtpFailure,
      );

    const unknown = await send('nobody@tessera.local');
    t.equal(unknown?.responseCode, 550);
    t.match(unknown?.response, /5\.1\.1/);

    const relay = await send('victim@elsewhere.test');
    t.equal(relay?.responseCode, 550);
    t.match(relay?.response, /5\.7\.1 Relaying denied/);

    const big = await send('alice@tessera.local', 'x'.repeat(100 * 1024));
    t.equal(big?.responseCode, 552);

    t.equal(await send('alice@example.org'), undefined, 'every configured domain is local');
    await mail.settle();
    const inbox = await mail.service.listMessages('alice', 'inbox', { limit: 10 });
    t.equal(inbox.messages.length, 1, 'only the accepted message was stored');
  },
);

t.test('GTUBE lands in Junk', async (t) => {
  const mail = await startTestMail(t);
  await mail.service.ensureMailbox('alice');
  await client(mail.smtpIn?.port ?? 0).sendMail({
    from: 'spammer@remote.test',
    to: 'alice@tessera.local',
    subject: 'offer',
    text: 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X',
  });
  await mail.settle();
  t.equal((await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages.length, 0);
  const junk = await mail.service.listMessages('alice', 'junk', { limit: 10 });
  t.equal(junk.messages.length, 1);
  t.ok((junk.messages[0]?.spam_score ?? 0) >= 1000);
});

t.test('what smtp-in acknowledged survives a crash before the worker ran, and is stored once', async (t) => {
  const dataDir = tempDir(t);
  const clock = new FakeClock();
  const first = await startTestMail(t, { dataDir, clock });
  await first.service.ensureMailbox('alice');
  await client(first.smtpIn?.port ?? 0).sendMail({
    from: 'bob@remote.test',
    to: 'alice@tessera.local',
    subject: 'kept',
    text: 'k',
  });
  // A worker claims the job and dies before acking it.
  await first.ports.queue.claim('mail.inbound', { limit: 10, leaseMs: 60_000 });
  await first.close();

  const second = await startTestMail(t, { dataDir, clock });
  await second.settle();
  t.equal(
    (await second.service.listMessages('alice', 'inbox', { limit: 10 })).messages.length,
    0,
    'leased by the dead worker',
  );
  clock.advance(60_000);
  await second.settle();
  const inbox = await second.service.listMessages('alice', 'inbox', { limit: 10 });
  t.same(
    inbox.messages.map((m) => m.subject),
    ['kept'],
  );
  t.same(await second.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 });
});

t.test('one SMTP transaction for several recipients stores one copy per user', async (t) => {
  const mail = await startTestMail(t);
  await mail.service.ensureMailbox('alice');
  await mail.service.ensureMailbox('bob');
  await client(mail.smtpIn?.port ?? 0).sendMail({
    from: 'carol@remote.test',
    to: ['alice@tessera.local', 'bob@tessera.local'],
    cc: 'alice@example.org',
    subject: 'to both',
    text: 't',
  });
  await mail.settle();
  for (const user of ['alice', 'bob']) {
    const inbox = await mail.service.listMessages(user, 'inbox', { limit: 10 });
    t.same(
      inbox.messages.map((m) => [m.user_id, m.subject]),
      [[user, 'to both']],
      user,
    );
  }
});

t.test(
  'smtp-in asks the store once about a mailbox that exists, every time about one that does not',
  async (t) => {
    const ports = openEmbeddedMail({ dataDir: tempDir(t) });
    t.teardown(() => ports.close());
    await ports.metadata.ensureUser('alice');
    const asked: string[] = [];
    const metadata: MetadataStore = Object.create(ports.metadata, {
      hasUser: {
        value: (userId: string) => {
          asked.push(userId);
          return ports.metadata.hasUser(userId);
        },
      },
    }) as MetadataStore;
    const smtpIn = await startSmtpIn({
      ...ports,
      metadata,
      domains: ['tessera.local'],
      maxMessageBytes: 1024 * 1024,
      verifySender: () => Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none' }),
      host: '127.0.0.1',
      port: 0,
    });
    t.teardown(() => smtpIn.close());
    const send = (to: string) =>
      client(smtpIn.port).sendMail({ from: 'bob@remote.test', to, subject: 'hi', text: 'hello' });

    await send('alice@tessera.local');
    await send('alice@tessera.local');
    const refused = await send('carol@tessera.local').then(
      () => undefined,
      (error: unknown) => error as SmtpFailure,
    );
    t.equal(refused?.responseCode, 550, 'carol has no mailbox');
    await ports.metadata.ensureUser('carol');
    await send('carol@tessera.local');
    await send('carol@tessera.local');
    t.same(asked, ['alice', 'carol', 'carol'], 'alice once; carol until her mailbox existed');
    t.equal((await ports.queue.stats(TOPIC.inbound)).size, 4, 'every accepted message queued');
  },
);

t.test(
  'the stored message is its trace headers, then the bytes received; the sender check sees those bytes',
  async (t) => {
    const ports = openEmbeddedMail({ dataDir: tempDir(t) });
    t.teardown(() => ports.close());
    await ports.metadata.ensureUser('alice');
    const raw = Buffer.from(
      'From: bob@remote.test\r\nTo: alice@tessera.local\r\nSubject: exact\r\n\r\nfirst\r\n.dot\r\n\r\nlast\r\n',
    );
    // No Authentication-Results, one that fits the room before the message, one that does not.
    for (const length of [0, 200, 5000]) {
      const checked: Buffer[] = [];
      const header =
        length === 0 ? undefined : `Authentication-Results: tessera.local; ${'x'.repeat(length)}`;
      const smtpIn = await startSmtpIn({
        ...ports,
        domains: ['tessera.local'],
        maxMessageBytes: 1024 * 1024,
        verifySender: (bytes) => {
          checked.push(Buffer.from(bytes));
          return Promise.resolve({ spf: 'none', dkim: 'none', dmarc: 'none', ...(header ? { header } : {}) });
        },
        host: '127.0.0.1',
        port: 0,
      });
      const info = await client(smtpIn.port).sendMail({
        envelope: { from: 'bob@remote.test', to: ['alice@tessera.local'] },
        raw,
      });
      await smtpIn.close();
      const emailId = /queued as ([0-9a-f-]{36})/.exec(info.response)?.[1] ?? '';
      t.same(checked, [raw], `header ${length}: the sender check got the message as sent`);
      const stored = (await ports.blobs.read(rawKey(emailId))) ?? Buffer.alloc(0);
      // The first read is the hand-off of the bytes put; the second reads them back from the store.
      t.same(await ports.blobs.read(rawKey(emailId)), stored, `header ${length}: as written to the store`);
      const trace = stored.subarray(0, stored.length - raw.length).toString();
      t.ok(
        stored.subarray(stored.length - raw.length).equals(raw),
        `header ${length}: then the bytes received`,
      );
      t.match(
        trace,
        new RegExp(
          `^${header === undefined ? '' : `${header}\\r\\n`}Received: from [^\\r]*\\r\\n\\tby tessera\\.local \\(tessera\\) with ESMTP id ${emailId};\\r\\n\\t[^\\r]+\\r\\n$`,
        ),
        `header ${length}: the trace first`,
      );
    }
  },
);
