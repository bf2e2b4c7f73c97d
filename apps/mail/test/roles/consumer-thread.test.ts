/**
 * The worker and the indexer on a thread of their own (roles/consumer-thread.ts), over a real
 * data directory: what the main thread enqueues is filed, indexed and pushed to its subscribers;
 * a thread that dies is reported and started again, and nothing is filed twice; close() ends it.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { pollUntil } from '@tessera/testkit';
import type { PushRecord } from '../../src/ports.ts';
import { startTestMail, tempDir, type TestMail } from '../helpers/mail.ts';

/** Resolves once `probe` holds; 60 s is a guard against a hang, not an expected wait. */
function until(probe: () => Promise<boolean> | boolean): Promise<void> {
  return pollUntil(`the consumer thread's work (${probe.toString()})`, async () => probe(), {
    ms: 60_000,
    intervalMs: 20,
  });
}

async function threaded(t: Test, pollMs: number, onError?: (error: unknown) => void): Promise<TestMail> {
  const dataDir = tempDir(t);
  const mail = await startTestMail(t, {
    dataDir,
    env: { MAIL_JOB_LEASE_MS: '300' },
    extra: {
      smtpIn: false,
      consumers: true,
      consumerThread: { dataDir, synchronous: 'normal' },
      pollMs,
      ...(onError === undefined ? {} : { onError }),
    },
  });
  await mail.service.ensureMailbox('alice');
  await mail.service.ensureMailbox('bob');
  return mail;
}

async function inboxOf(mail: TestMail, userId: string): Promise<string[]> {
  const page = await mail.service.listMessages(userId, 'inbox', { limit: 100 });
  return page.messages.map((m) => m.subject);
}

t.test('mail enqueued by the main thread is filed, indexed and pushed there by the thread', async (t) => {
  // Polls an hour apart: only the forwarded wake-ups can get the thread going.
  const mail = await threaded(t, 3_600_000);
  const pushed: PushRecord[] = [];
  t.teardown(mail.ports.push.subscribe('bob', (record) => pushed.push(record)));
  await mail.service.send('alice', {
    to: [{ name: '', email: 'bob@tessera.local' }],
    subject: 'Hello',
    body: 'hi',
  });
  await until(async () => (await inboxOf(mail, 'bob')).includes('Hello'));
  await until(
    async () => (await mail.service.search('bob', 'subject:hello', { limit: 5 })).messages.length === 1,
  );
  await until(() => pushed.some(({ event }) => event.type === 'message.new'));
  const news = pushed.filter(({ event }) => event.type === 'message.new');
  t.equal(news.length, 1);
  // The thread wrote it to push.db before the main thread's subscriber heard of it.
  const backlog = await mail.ports.push.poll('bob', 0, { waitMs: 0, limit: 10 });
  t.same(
    backlog.filter(({ event }) => event.type === 'message.new'),
    news,
    'the record the subscriber got is the one in the backlog',
  );
  t.equal(mail.consumerThread?.restarts, 0);

  const thread = mail.consumerThread?.current();
  t.ok(thread, 'the thread runs');
  let exitCode: number | undefined;
  thread?.once('exit', (code) => (exitCode = code));
  await mail.close();
  t.equal(exitCode, 0, 'close() ended the thread cleanly');
  t.equal(mail.consumerThread?.current(), undefined);
});

t.test('a thread that dies is reported and started again; nothing is filed twice', async (t) => {
  const errors: unknown[] = [];
  const mail = await threaded(t, 100, (error) => errors.push(error));
  const subjects = Array.from({ length: 30 }, (_, i) => `m${i}`);
  for (const subject of subjects) {
    await mail.service.send('alice', {
      to: [{ name: '', email: 'bob@tessera.local' }],
      subject,
      body: subject,
    });
  }
  // Killed while it works through them: what it had claimed comes back when the lease runs out.
  await mail.consumerThread?.current()?.terminate();
  await until(() => mail.consumerThread?.restarts === 1 && mail.consumerThread.current() !== undefined);
  t.match(String(errors[0]), /consumer thread exited/, 'the death is reported');
  await mail.service.send('alice', {
    to: [{ name: '', email: 'bob@tessera.local' }],
    subject: 'after',
    body: 'x',
  });
  await until(async () => (await inboxOf(mail, 'bob')).length >= subjects.length + 1);
  const inbox = await inboxOf(mail, 'bob');
  t.same([...inbox].sort(), [...subjects, 'after'].sort(), 'every message once');
  await until(
    async () => (await mail.service.search('bob', 'subject:m1', { limit: 5 })).messages.length === 1,
  );
});

t.test('a thread that cannot start fails startMail instead of leaving the mail unfiled', async (t) => {
  const dataDir = tempDir(t);
  await t.rejects(
    startTestMail(t, {
      dataDir,
      extra: {
        smtpIn: false,
        consumers: true,
        // A directory under a file: the thread cannot open its stores.
        consumerThread: { dataDir: join(dataDir, 'mail', 'queue.db', 'x'), synchronous: 'normal' },
      },
    }),
  );
});
