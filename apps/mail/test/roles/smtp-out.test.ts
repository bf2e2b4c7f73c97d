import t, { type Test } from 'tap';
import { generateKeyPairSync } from 'node:crypto';
import { createSmtpOut } from '../../src/roles/smtp-out.ts';
import { openEmbeddedMail } from '../../src/adapters/embedded/open-embedded.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { FakeClock, startTestMail, stubResolver, tempDir } from '../helpers/mail.ts';

const remote = stubResolver({
  mx: { 'remote.test': [{ exchange: 'mx.remote.test', priority: 10 }] },
  a: { 'mx.remote.test': ['127.0.0.1'], 'implicit.test': ['127.0.0.1'] },
});

async function sink(t: Test, reply?: Parameters<typeof startSmtpSink>[0]): Promise<SmtpSink> {
  const s = await startSmtpSink(reply);
  t.teardown(() => s.close());
  return s;
}

t.test('outbound mail reaches the MX once per recipient, DKIM-signed, with no Bcc header', async (t) => {
  const mx = await sink(t);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const mail = await startTestMail(t, {
    env: { SMTP_REMOTE_PORT: String(mx.port) },
    resolver: remote,
    extra: {
      dkim: {
        domainName: 'tessera.local',
        keySelector: 'tessera',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    },
  });
  const sent = await mail.service.send('alice', {
    to: [{ name: 'Bob', email: 'bob@remote.test' }],
    bcc: [{ name: 'Carol', email: 'carol@remote.test' }],
    subject: 'Lunch',
    body: 'At noon?',
  });
  t.equal(sent.folder_id, 'sent');
  t.same(
    sent.bcc.map((a) => a.email),
    ['carol@remote.test'],
    'the sender keeps the Bcc list on their own copy',
  );

  await mail.settle();
  t.same(
    mx.deliveries.map((d) => d.recipients),
    [['bob@remote.test'], ['carol@remote.test']],
  );
  for (const delivery of mx.deliveries) {
    t.equal(delivery.mailFrom, 'alice@tessera.local');
    t.notMatch(delivery.raw, /^bcc:/im, 'no Bcc header');
    t.notMatch(delivery.raw, /carol/i, 'the Bcc recipient is named nowhere in the message');
    t.match(delivery.raw, /^DKIM-Signature: .*d=tessera\.local/m);
  }
  await mail.settle();
  t.equal(mx.deliveries.length, 2, 'settling again sends nothing more');
  t.same(await mail.ports.queue.stats('mail.outbound'), { size: 0, oldestAgeMs: 0 });
});

t.test('a domain without MX is reached through its A record (implicit MX)', async (t) => {
  const mx = await sink(t);
  const mail = await startTestMail(t, { env: { SMTP_REMOTE_PORT: String(mx.port) }, resolver: remote });
  await mail.service.send('alice', {
    to: [{ name: '', email: 'dave@implicit.test' }],
    subject: 's',
    body: 'b',
  });
  await mail.settle();
  t.same(
    mx.deliveries.map((d) => d.recipients),
    [['dave@implicit.test']],
  );
});

t.test('a 4xx is retried with exponential back-off, then delivered once', async (t) => {
  const mx = await sink(t, (address, attempt) =>
    address === 'slow@remote.test' && attempt <= 2
      ? { code: 451, message: '4.3.2 Try again later' }
      : undefined,
  );
  const mail = await startTestMail(t, { env: { SMTP_REMOTE_PORT: String(mx.port) }, resolver: remote });
  await mail.service.send('alice', {
    to: [{ name: '', email: 'slow@remote.test' }],
    subject: 's',
    body: 'b',
  });

  await mail.settle();
  t.equal(mx.rcptAttempts.length, 1);
  t.equal((await mail.ports.queue.stats('mail.outbound')).size, 1, 'still queued');
  mail.clock.advance(999);
  await mail.settle();
  t.equal(mx.rcptAttempts.length, 1, 'not retried before the first delay (1 s)');
  mail.clock.advance(1);
  await mail.settle();
  t.equal(mx.rcptAttempts.length, 2, 'retried after 1 s');
  mail.clock.advance(1999);
  await mail.settle();
  t.equal(mx.rcptAttempts.length, 2, 'the second delay is 2 s');
  mail.clock.advance(1);
  await mail.settle();
  t.equal(mx.rcptAttempts.length, 3);
  t.equal(mx.deliveries.length, 1, 'delivered on the third attempt');
  mail.clock.advance(60_000);
  await mail.settle();
  t.equal(mx.deliveries.length, 1, 'and only once');
  t.equal((await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages.length, 0, 'no bounce');
});

t.test('a 5xx becomes a bounce (DSN) in the sender Inbox, in the thread of the sent message', async (t) => {
  const mx = await sink(t, (address) =>
    address === 'gone@remote.test' ? { code: 550, message: '5.1.1 User unknown' } : undefined,
  );
  const mail = await startTestMail(t, { env: { SMTP_REMOTE_PORT: String(mx.port) }, resolver: remote });
  const sent = await mail.service.send('alice', {
    to: [{ name: '', email: 'gone@remote.test' }],
    subject: 'Hello',
    body: 'b',
  });
  await mail.settle();
  t.equal(mx.rcptAttempts.length, 1, 'not retried');
  const inbox = await mail.service.listMessages('alice', 'inbox', { limit: 10 });
  t.equal(inbox.messages.length, 1);
  const bounce = inbox.messages[0];
  t.match(bounce, {
    from: { email: 'MAILER-DAEMON@tessera.local' },
    subject: 'Undelivered Mail Returned to Sender: Hello',
    in_reply_to: sent.message_id,
    thread_id: sent.thread_id,
  });
  t.match(bounce?.body, /gone@remote\.test/);
  t.match(bounce?.body, /5\.1\.1 User unknown/);
  t.same(await mail.ports.queue.stats('mail.errors'), { size: 0, oldestAgeMs: 0 });
});

t.test('temporary failures past the give-up age become a bounce', async (t) => {
  const mx = await sink(t, () => ({ code: 421, message: '4.7.0 Busy' }));
  const mail = await startTestMail(t, { env: { SMTP_REMOTE_PORT: String(mx.port) }, resolver: remote });
  await mail.service.send('alice', {
    to: [{ name: '', email: 'busy@remote.test' }],
    subject: 'Late',
    body: 'b',
  });
  for (let i = 0; i < 20; i++) {
    await mail.settle();
    mail.clock.advance(8000);
  }
  const inbox = await mail.service.listMessages('alice', 'inbox', { limit: 10 });
  t.equal(inbox.messages.length, 1, 'one bounce');
  t.match(inbox.messages[0]?.body, /gave up after \d+ attempts/);
  // 1 + 2 + 4 + 8 + 8 + ... s of back-off within the 60 s give-up age.
  t.ok(mx.rcptAttempts.length >= 5 && mx.rcptAttempts.length <= 12, `${mx.rcptAttempts.length} attempts`);
  t.equal((await mail.ports.queue.stats('mail.outbound')).size, 0);
});

t.test('an unknown domain bounces at once; a null MX too', async (t) => {
  const resolver = stubResolver({ mx: { 'nomail.test': [{ exchange: '.', priority: 0 }] } });
  const mail = await startTestMail(t, { resolver });
  await mail.service.send('alice', {
    to: [
      { name: '', email: 'x@nowhere.test' },
      { name: '', email: 'y@nomail.test' },
    ],
    subject: 'S',
    body: 'b',
  });
  await mail.settle();
  const bodies = (await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages
    .map((m) => m.body)
    .join('\n');
  t.match(bodies, /nowhere\.test does not exist/);
  t.match(bodies, /null MX/);
});

t.test('after a crash and restart, no recipient is sent the message twice', async (t) => {
  const mx = await sink(t);
  const dataDir = tempDir(t);
  const clock = new FakeClock();
  const env = { SMTP_REMOTE_PORT: String(mx.port) };
  const first = await startTestMail(t, { dataDir, clock, env, resolver: remote });
  await first.service.send('alice', {
    to: [
      { name: '', email: 'one@remote.test' },
      { name: '', email: 'two@remote.test' },
      { name: '', email: 'three@remote.test' },
    ],
    subject: 'S',
    body: 'b',
  });
  // One delivery, then the process dies: a second smtp-out over the same files has claimed the
  // next job (its lease is held) and dies before sending it.
  const ports = openEmbeddedMail({ dataDir, now: clock.now });
  const out = createSmtpOut({
    queue: ports.queue,
    blobs: ports.blobs,
    resolver: remote,
    remotePort: mx.port,
    heloName: 'tessera.local',
    retry: { baseMs: 1000, maxMs: 8000, giveUpAfterMs: 60_000 },
    batchSize: 1,
  });
  await out.drain();
  t.equal(mx.deliveries.length, 1);
  await ports.queue.claim('mail.outbound', { limit: 1, leaseMs: 30_000 });
  await ports.close();
  await first.close();

  const second = await startTestMail(t, { dataDir, clock, env, resolver: remote });
  await second.settle();
  t.equal(mx.deliveries.length, 2, 'the job leased by the dead process waits for its lease');
  clock.advance(30_000);
  await second.settle();
  t.same(mx.deliveries.map((d) => d.recipients[0]).sort(), [
    'one@remote.test',
    'three@remote.test',
    'two@remote.test',
  ]);
});
