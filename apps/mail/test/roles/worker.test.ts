import t from 'tap';
import { createWorker } from '../../src/roles/worker.ts';
import type { InboundJob } from '../../src/core/events.ts';
import type { MetadataStore } from '../../src/ports.ts';
import { composeMessage } from '../../src/mime/compose.ts';
import { startTestMail } from '../helpers/mail.ts';

async function queueInbound(
  mail: Awaited<ReturnType<typeof startTestMail>>,
  raw: Buffer,
  mailFrom: string,
): Promise<void> {
  await mail.ports.blobs.put('raw/m1.eml', raw);
  const job: InboundJob = {
    v: 1,
    type: 'inbound',
    email_id: '01900000-0000-7000-8000-000000000001',
    raw_key: 'raw/m1.eml',
    mail_from: mailFrom,
    recipients: ['bob'],
    auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
    received_at: mail.clock.ms,
  };
  await mail.ports.queue.enqueue('mail.inbound', job.email_id, job);
}

t.test('a job whose store keeps failing is retried with back-off, then given up and bounced', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('alice');
  await mail.service.ensureMailbox('bob');
  const raw = await composeMessage({
    from: { name: '', email: 'alice@tessera.local' },
    to: [{ name: '', email: 'bob@tessera.local' }],
    cc: [],
    subject: 'doomed',
    text: 'x',
    messageId: 'doomed@tessera.local',
    references: [],
    date: new Date(mail.clock.ms),
    attachments: [],
  });
  await queueInbound(mail, raw, 'alice@tessera.local');
  // The store works, except that no message can be written.
  const store = mail.ports.metadata;
  const failing = new Proxy(store, {
    get: (target, name: keyof MetadataStore) =>
      name === 'insertMessage' || name === 'fileCopies'
        ? () => Promise.reject(new Error('disk full'))
        : target[name].bind(target),
  });
  const errors: unknown[] = [];
  const worker = createWorker({
    ...mail.ports,
    metadata: failing,
    domains: ['tessera.local'],
    spamThreshold: 5,
    now: mail.clock.now,
    retryMs: 100,
    maxAttempts: 3,
    onError: (e) => errors.push(e),
  });
  t.equal(await worker.drain(), 1);
  t.match(await mail.ports.queue.stats('mail.inbound'), { size: 1 }, 'given back, not lost');
  t.equal(await worker.drain(), 0, 'not before its back-off');
  mail.clock.advance(100);
  t.equal(await worker.drain(), 1, 'second attempt after 100 ms');
  mail.clock.advance(199);
  t.equal(await worker.drain(), 0);
  mail.clock.advance(1);
  t.equal(
    await worker.drain(),
    2,
    'third attempt after 200 ms more, given up: its error job is handled in the same pass',
  );
  t.equal(errors.length, 3);
  t.same(await mail.ports.queue.stats('mail.errors'), { size: 0, oldestAgeMs: 0 });

  await mail.settle();
  const alice = await mail.service.listMessages('alice', 'inbox', { limit: 10 });
  t.match(alice.messages, [{ subject: 'Undelivered Mail Returned to Sender' }]);
  t.match(alice.messages[0]?.body, /disk full/);
});

t.test('an unreadable message goes to the error queue; a bounce itself is never bounced', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('bob');
  await queueInbound(mail, Buffer.from('not a mail at all'), '');
  await mail.ports.blobs.delete('raw/m1.eml');
  await mail.settle();
  t.same(await mail.ports.queue.stats('mail.errors'), { size: 0, oldestAgeMs: 0 });
  t.same((await mail.service.listMessages('bob', 'inbox', { limit: 10 })).messages, []);
});
