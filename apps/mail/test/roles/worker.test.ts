import t from 'tap';
import { createWorker } from '../../src/roles/worker.ts';
import type { InboundJob } from '../../src/core/events.ts';
import type { BlobStore, MetadataStore } from '../../src/ports.ts';
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

t.test('in a claimed batch, a job that fails is given back alone; the others are filed once', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('bob');
  const ids = ['01900000-0000-7000-8000-00000000000a', '01900000-0000-7000-8000-00000000000b'];
  const [parentId = '', replyId = '', brokenId = ''] = [...ids, '01900000-0000-7000-8000-00000000000c'];
  const queue = async (emailId: string, subject: string, inReplyTo?: string): Promise<void> => {
    const raw = await composeMessage({
      from: { name: '', email: 'carol@remote.test' },
      to: [{ name: '', email: 'bob@tessera.local' }],
      cc: [],
      subject,
      text: 'x',
      messageId: `${subject}@remote.test`,
      ...(inReplyTo === undefined ? {} : { inReplyTo }),
      references: inReplyTo === undefined ? [] : [inReplyTo],
      date: new Date(mail.clock.ms),
      attachments: [],
    });
    await mail.ports.blobs.put(`raw/${emailId}.eml`, raw);
    const job: InboundJob = {
      v: 1,
      type: 'inbound',
      email_id: emailId,
      raw_key: `raw/${emailId}.eml`,
      mail_from: 'carol@remote.test',
      recipients: ['bob'],
      auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
      received_at: mail.clock.ms,
    };
    await mail.ports.queue.enqueue('mail.inbound', emailId, job);
  };
  await queue(parentId, 'parent');
  await queue(replyId, 'reply', 'parent@remote.test'); // the parent is in the same batch
  await queue(brokenId, 'broken');
  // The blob store fails once, for one of the three messages only.
  let hiccups = 1;
  const flaky = new Proxy(mail.ports.blobs, {
    get: (target, name: keyof BlobStore) =>
      name === 'read'
        ? (key: string) =>
            key.includes(brokenId) && hiccups-- > 0
              ? Promise.reject(new Error('disk hiccup'))
              : target.read(key)
        : target[name].bind(target),
  });
  const worker = createWorker({
    ...mail.ports,
    blobs: flaky,
    domains: ['tessera.local'],
    spamThreshold: 5,
    now: mail.clock.now,
    retryMs: 100,
  });
  t.equal(await worker.drain(), 3, 'the three jobs were claimed together');
  const inbox = await mail.service.listMessages('bob', 'inbox', { limit: 10 });
  t.same(inbox.messages.map((m) => m.subject).sort(), ['parent', 'reply']);
  t.same(
    new Set(inbox.messages.map((m) => m.thread_id)),
    new Set([parentId]),
    'the reply joined its parent filed in the same batch',
  );
  t.match(await mail.ports.queue.stats('mail.inbound'), { size: 1 }, 'only the failed job is left');
  mail.clock.advance(100);
  t.equal(await worker.drain(), 1, 'retried after its back-off');
  const after = await mail.service.listMessages('bob', 'inbox', { limit: 10 });
  t.same(after.messages.map((m) => m.subject).sort(), ['broken', 'parent', 'reply'], 'each filed once');
  t.same(await mail.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 });
});
