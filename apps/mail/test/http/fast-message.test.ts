/**
 * GET /v1/messages/{id} answered before fastify (fast-message.ts) writes the full route's bytes,
 * and leaves to the full route every request it should not answer.
 */
import t from 'tap';
import { newEmailId } from '../../src/core/email-id.ts';
import type { StoredMessage } from '../../src/ports.ts';
import { startApi } from '../helpers/http.ts';

const a = 'a'.repeat(199);
const BODIES = ['short', `${a}😀 across the cut`, `lone \ud83d half, "quotes" \\ and\ncontrols\u0001 \u2028`];

// Addresses with their keys in the other order, and every optional field, to catch a view that
// writes what it was given rather than what the schema says.
const swapped = (email: string, name: string) => ({ email, name }) as unknown as StoredMessage['from'];

function stored(i: number): StoredMessage {
  const id = newEmailId();
  return {
    user_id: 'alice',
    email_id: id,
    folder_id: 'inbox',
    thread_id: id,
    message_id: `<${i}@remote.test>`,
    ...(i === 0 ? {} : { in_reply_to: `<${i - 1}@remote.test>` }),
    references: i === 0 ? [] : [`<${i - 1}@remote.test>`],
    from: swapped('x@remote.test', 'Ann "A" Lee'),
    to: [swapped('alice@tessera.local', '')],
    cc: i === 1 ? [] : [swapped('c@remote.test', 'Cé')],
    bcc: i === 2 ? [swapped('b@remote.test', 'B')] : [],
    subject: `m${i} ✓`,
    body: BODIES[i] ?? '',
    ...(i === 1 ? { html: '<p>hi</p>' } : {}),
    is_read: i === 2,
    received_at: 1_700_000_000_123 + i,
    attachments:
      i === 0 ? [] : [{ filename: 'a b.txt', content_type: 'text/plain', size: 2, blob_key: `k${i}` }],
    ...(i === 2 ? {} : { auth: { spf: 'pass', dkim: 'none', dmarc: 'fail' } }),
    ...(i === 1 ? { spam_score: 2.5 } : {}),
  };
}

t.test('the fast answer is the full route answer, byte for byte', async (t) => {
  const api = await startApi(t);
  const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  const service = api.mail.service;
  let fastReads = 0;
  const messageNow = service.messageNow.bind(service);
  service.messageNow = (user, id) => {
    fastReads++;
    return messageNow(user, id);
  };
  const headers = { authorization: `Bearer ${await api.token('alice')}` };
  await api.call('GET', '/v1/folders', { user: 'alice' }); // the mailbox, and a verified token
  const sent = await api.call('POST', '/v1/messages', {
    user: 'alice',
    body: {
      to: [{ email: 'x@remote.test' }],
      bcc: [{ name: 'B', email: 'b@remote.test' }],
      subject: 's',
      body: 'b',
    },
  });
  const ids = [sent.json<{ email_id: string }>().email_id];
  for (const i of BODIES.keys()) {
    const m = stored(i);
    await api.mail.ports.metadata.insertMessage(m);
    ids.push(m.email_id);
  }
  for (const id of ids) {
    const full = await api.call('GET', `/v1/messages/${id}`, { user: 'alice' });
    t.equal(full.statusCode, 200);
    const before = fastReads;
    const fast = await fetch(`${base}/v1/messages/${id}`, { headers });
    t.equal(fastReads, before + 1, 'answered before fastify');
    t.equal(fast.status, 200);
    t.equal(fast.headers.get('content-type'), full.headers['content-type']);
    t.equal(await fast.text(), full.body, `${id}: the same bytes`);
  }

  // What it leaves to the full route: each answered as the route answers it.
  const unknown = newEmailId();
  // The store is asked only for what could be a plain id (then declined: no such message);
  // a query or another shape is declined before it.
  for (const [url, status, asked] of [
    [`/v1/messages/${unknown}`, 404, 1],
    [`/v1/messages/${ids[0] ?? ''}?x=1`, 200, 0],
    ['/v1/messages/not-an-id', 404, 0],
    [`/v1/messages/${'f'.repeat(36)}`, 404, 1],
  ] as const) {
    const before = fastReads;
    const response = await fetch(`${base}${url}`, { headers });
    t.equal(response.status, status, url);
    await response.arrayBuffer();
    t.equal(fastReads - before, asked, `${url}: the fast answer asked the store ${asked} time(s)`);
  }
  const bob = await fetch(`${base}/v1/messages/${ids[1] ?? ''}`, {
    headers: { authorization: `Bearer ${await api.token('bob')}` },
  });
  t.equal(bob.status, 404, "another user's message is not found, as on the full route");
});
