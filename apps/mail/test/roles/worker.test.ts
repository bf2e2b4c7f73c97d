// The worker's failures: retries with back-off, bounces, a batch's bad job or dead parse thread
// failing that job only.
import t from 'tap';
import type { InboundJob } from '../../src/core/events.ts';
import type { BlobStore, MetadataStore } from '../../src/ports.ts';
import { composeMessage } from '../../src/mime/compose.ts';
import { parseMessage, type ParsedMessage } from '../../src/mime/parse.ts';
import { ParserUnavailable } from '../../src/mime/parse-pool.ts';
import { parseSearchQuery } from '../../src/core/search-query.ts';
import { createWorker } from '../../src/roles/worker.ts';
import { startTestMail } from '../helpers/mail.ts';
import { queueInbound, queueMessage, testWorker } from '../helpers/worker.ts';

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
  t.same(
    await mail.ports.search.search('bob', parseSearchQuery('doomed'), { limit: 5 }),
    [],
    'a copy never filed is not in the index',
  );

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
  const queue = (emailId: string, subject: string, inReplyTo?: string): Promise<void> =>
    queueMessage(mail, emailId, subject, inReplyTo);
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
  const worker = testWorker(mail, { blobs: flaky });
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

t.test('a parse thread that dies fails only the message that kills it, not the batch it held', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('bob');
  const ids = ['01900000-0000-7000-8000-0000000000d1', '01900000-0000-7000-8000-0000000000d2'];
  const culpritId = '01900000-0000-7000-8000-0000000000d3';
  await queueMessage(mail, ids[0]!, 'first');
  await queueMessage(mail, ids[1]!, 'second');
  await queueMessage(mail, culpritId, 'culprit');
  // The culprit kills the thread whenever it is parsed, and every parse under way with it fails
  // (the others take a tick longer, so they are still under way when it does).
  const inFlight = new Set<(error: Error) => void>();
  const parse = (raw: Buffer): Promise<ParsedMessage> =>
    new Promise((resolve, reject) => {
      inFlight.add(reject);
      const culprit = raw.includes('Subject: culprit');
      const run = (): void => {
        if (!inFlight.has(reject)) return; // failed with the thread already
        if (culprit) {
          for (const fail of inFlight) fail(new ParserUnavailable('the parse thread exited (1)'));
          inFlight.clear();
          return;
        }
        inFlight.delete(reject);
        parseMessage(raw).then(resolve, reject);
      };
      setImmediate(culprit ? run : () => setImmediate(run));
    });
  const worker = testWorker(mail, { parse });
  t.equal(await worker.drain(), 3, 'the three jobs were claimed together');
  const inbox = await mail.service.listMessages('bob', 'inbox', { limit: 10 });
  t.same(inbox.messages.map((m) => m.subject).sort(), ['first', 'second'], 'the innocent ones are filed');
  mail.clock.advance(100); // the culprit's back-off
  const [left, ...others] = await mail.ports.queue.claim<InboundJob>('mail.inbound', {
    limit: 10,
    leaseMs: 1,
  });
  t.equal(others.length, 0);
  t.equal(left?.id, culpritId, 'only the culprit is left');
  t.equal(left?.attempts, 1, 'it counted one failed attempt, the others none');
});

t.test(
  'when a batch cannot be filed, each job is filed on its own: one bad copy fails its job only',
  async (t) => {
    const mail = await startTestMail(t, { extra: { smtpIn: false } });
    await mail.service.ensureMailbox('bob');
    const badId = '01900000-0000-7000-8000-0000000000e3';
    await queueMessage(mail, '01900000-0000-7000-8000-0000000000e1', 'first');
    await queueMessage(mail, '01900000-0000-7000-8000-0000000000e2', 'second');
    await queueMessage(mail, badId, 'bad');
    // The store refuses any write holding the bad copy.
    const picky = new Proxy(mail.ports.metadata, {
      get: (target, name: keyof MetadataStore) =>
        name === 'fileCopies'
          ? (copies: Parameters<MetadataStore['fileCopies']>[0]) =>
              copies.some((c) => c.message.subject === 'bad')
                ? Promise.reject(new Error('constraint failed'))
                : target.fileCopies(copies)
          : target[name].bind(target),
    });
    const worker = testWorker(mail, { metadata: picky });
    t.equal(await worker.drain(), 3, 'the three jobs were claimed together');
    const inbox = await mail.service.listMessages('bob', 'inbox', { limit: 10 });
    t.same(inbox.messages.map((m) => m.subject).sort(), ['first', 'second']);
    mail.clock.advance(100);
    const left = await mail.ports.queue.claim<InboundJob>('mail.inbound', { limit: 10, leaseMs: 1 });
    t.same(
      left.map((job) => [job.id, job.attempts]),
      [[badId, 1]],
      'only the bad job is left, with one failed attempt',
    );
  },
);
