import t from 'tap';
import nodemailer from 'nodemailer';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pollUntil, selfSignedCertificate } from '@tessera/testkit';
import { startSmtpSink } from './helpers/smtp-sink.ts';
import { startTestMail, stubResolver, tempDir } from './helpers/mail.ts';

t.test('with its consumers running, mail flows from SMTP to the Inbox and the index by itself', async (t) => {
  const mail = await startTestMail(t, { extra: { consumers: true, pollMs: 20 } });
  await mail.service.ensureMailbox('alice');
  const waiting = mail.service.poll('alice', 0, { waitMs: 10_000, limit: 10 });
  await nodemailer
    .createTransport({ host: '127.0.0.1', port: mail.smtpIn?.port ?? 0, secure: false, ignoreTLS: true })
    .sendMail({
      from: 'bob@remote.test',
      to: 'alice@tessera.local',
      subject: 'Pushed',
      text: 'searchable words',
    });
  t.match(
    await waiting,
    [{ event: { type: 'message.new', folder_id: 'inbox' } }],
    'pushed to a waiting poll',
  );
  let found = 0;
  await pollUntil(
    'the message in the index',
    async () =>
      (found = (await mail.service.search('alice', 'searchable', { limit: 10 })).messages.length) > 0,
    { ms: 10_000, intervalMs: 10 },
  );
  t.equal(found, 1, 'indexed without anyone calling settle');
  // The job is acked after its copy is told and indexed: the consumers end their batch first.
  await mail.stop();
  t.same(await mail.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 }, 'nothing left behind');
  await mail.close();
});

t.test('settings wire STARTTLS on smtp-in and DKIM signing on smtp-out', async (t) => {
  const dir = tempDir(t);
  const { certFile, keyFile } = selfSignedCertificate(dir);
  const dkimFile = join(dir, 'dkim.pem');
  writeFileSync(
    dkimFile,
    generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  const mx = await startSmtpSink();
  t.teardown(() => mx.close());
  const mail = await startTestMail(t, {
    env: {
      SMTP_TLS_CERT_FILE: certFile,
      SMTP_TLS_KEY_FILE: keyFile,
      MAIL_DKIM_KEY_FILE: dkimFile,
      MAIL_DKIM_SELECTOR: 'sel1',
      SMTP_REMOTE_PORT: String(mx.port),
    },
    resolver: stubResolver({ mx: { 'remote.test': [{ exchange: '127.0.0.1', priority: 1 }] } }),
  });
  await mail.service.ensureMailbox('alice');
  const info = await nodemailer
    .createTransport({
      host: '127.0.0.1',
      port: mail.smtpIn?.port ?? 0,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
    })
    .sendMail({ from: 'bob@remote.test', to: 'alice@tessera.local', subject: 'over TLS', text: 't' });
  t.match(info.response, /^250 /, 'accepted after STARTTLS');

  await mail.service.send('alice', {
    to: [{ name: '', email: 'bob@remote.test' }],
    subject: 'signed',
    body: 'b',
  });
  await mail.settle();
  t.equal((await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages.length, 1);
  const signature = /^DKIM-Signature:.*(\r\n[ \t].*)*/m.exec(mx.deliveries[0]?.raw ?? '')?.[0] ?? '';
  t.match(signature, /\bd=tessera\.local;/);
  t.match(signature, /\bs=sel1;/);
});

t.test('without a certificate, STARTTLS is not offered', async (t) => {
  const mail = await startTestMail(t);
  const refused = await nodemailer
    .createTransport({ host: '127.0.0.1', port: mail.smtpIn?.port ?? 0, secure: false, requireTLS: true })
    .sendMail({ from: 'bob@remote.test', to: 'alice@tessera.local', subject: 's', text: 't' })
    .then(
      () => undefined,
      (error: unknown) => error as Error,
    );
  t.match(refused?.message, /STARTTLS/);
});
