// The worker's filing: threads across concurrent drains, the index backlog and the documents
// handed to the indexer, and a search index that fails holding nothing back.
import t from 'tap';
import type { PushRecord, SearchIndex } from '../../src/ports.ts';
import { parseSearchQuery } from '../../src/core/search-query.ts';
import { parseMessage } from '../../src/mime/parse.ts';
import { FiledDocs } from '../../src/roles/filed-docs.ts';
import { createIndexer } from '../../src/roles/indexer.ts';
import { startTestMail } from '../helpers/mail.ts';
import { queueMessage, testWorker } from '../helpers/worker.ts';

t.test(
  'drains at once (two on the inbound queue): each job once, a reply filed first still threads',
  async (t) => {
    const mail = await startTestMail(t, { extra: { smtpIn: false } });
    await mail.service.ensureMailbox('bob');
    await queueMessage(mail, '01900000-0000-7000-8000-0000000000f1', 'parent');
    await queueMessage(mail, '01900000-0000-7000-8000-0000000000f2', 'reply', 'parent@remote.test');
    let replyParsed = (): void => undefined;
    const afterReply = new Promise<void>((resolve) => {
      replyParsed = resolve;
    });
    const worker = testWorker(mail, {
      batchSize: 1,
      // The parent, claimed first, is parsed only after the reply: the reply is filed first.
      parse: async (raw) => {
        const parsed = await parseMessage(raw);
        if (parsed.subject === 'parent') await afterReply;
        else replyParsed();
        return parsed;
      },
    });
    t.same(await Promise.all([worker.drain(), worker.drain()]), [1, 1], 'each drain claimed its own job');
    const inbox = (await mail.service.listMessages('bob', 'inbox', { limit: 10 })).messages;
    t.same(inbox.map((m) => m.subject).sort(), ['parent', 'reply'], 'filed once each');
    t.equal(new Set(inbox.map((m) => m.thread_id)).size, 1, 'one thread');
    t.equal(await worker.drain(), 0);
  },
);

t.test(
  'a filed copy goes to the index backlog, not a change job; filed again, it keeps a later change',
  async (t) => {
    const mail = await startTestMail(t, { extra: { smtpIn: false } });
    await mail.service.ensureMailbox('bob');
    const emailId = '01900000-0000-7000-8000-0000000000a1';
    await queueMessage(mail, emailId, 'findme');
    const filed = new FiledDocs();
    const worker = testWorker(mail, { filed });
    t.equal(await worker.drain(), 1);
    t.same(await mail.ports.queue.stats('mail.changes'), { size: 0, oldestAgeMs: 0 }, 'no change job');
    t.match(await mail.ports.metadata.unindexed(10), [{ email_id: emailId }], 'on the backlog');
    t.match(filed.take('bob', emailId), { subject: 'findme', is_read: false }, 'its document handed over');
    const found = async (q: string): Promise<string[]> =>
      (await mail.ports.search.search('bob', parseSearchQuery(q), { limit: 5 })).map((h) => h.email_id);
    t.same(await found('findme'), [], 'not indexed by the worker');
    await mail.settle();
    t.same(await found('findme is:unread'), [emailId], 'indexed as filed by the indexer');

    // Read since, and indexed so by the indexer; then the job comes back (a crash before its ack).
    await mail.service.updateMessage('bob', emailId, { is_read: true });
    await mail.settle();
    t.same(await found('findme is:read'), [emailId]);
    await queueMessage(mail, emailId, 'findme');
    t.equal(await worker.drain(), 1);
    t.match(await mail.ports.metadata.unindexed(10), [{ email_id: emailId }], 'queued again');
    await mail.settle();
    t.same(await found('findme is:read'), [emailId], 'the change is kept');
    t.same(await found('findme is:unread'), []);
    t.equal(
      (await mail.service.listMessages('bob', 'inbox', { limit: 10 })).messages.length,
      1,
      'filed once',
    );
  },
);

t.test('a failing search index neither fails nor holds back filing: the copy is indexed later', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await mail.service.ensureMailbox('bob');
  const emailId = '01900000-0000-7000-8000-0000000000b1';
  await queueMessage(mail, emailId, 'lookfor');
  const pushed: PushRecord[] = [];
  t.teardown(mail.ports.push.subscribe('bob', (record) => pushed.push(record)));
  const locked = new Proxy(mail.ports.search, {
    get: (target, name: keyof SearchIndex) =>
      name === 'addNew' ? () => Promise.reject(new Error('database is locked')) : target[name].bind(target),
  });
  const worker = testWorker(mail, {});
  const indexer = createIndexer({ ...mail.ports, search: locked });
  t.equal(await worker.drain(), 1);
  await t.rejects(indexer.drain(), { message: 'database is locked' });
  t.same(await mail.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 }, 'acked at once');
  t.same(
    (await mail.service.listMessages('bob', 'inbox', { limit: 10 })).messages.map((m) => m.email_id),
    [emailId],
    'filed',
  );
  t.match(pushed, [{ event: { type: 'message.new', email_id: emailId } }], 'and its user told');
  const found = async (): Promise<string[]> =>
    (await mail.ports.search.search('bob', parseSearchQuery('lookfor'), { limit: 5 })).map((h) => h.email_id);
  t.same(await found(), [], 'not indexed yet');
  await mail.settle();
  t.same(await found(), [emailId], 'searchable once the indexer caught up');
});
