import { once } from 'node:events';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { WebSocket } from 'ws';
import { openEmbeddedMail } from '../../src/adapters/embedded/open-embedded.ts';
import { EVENTS_PROTOCOL } from '../../src/http/event-routes.ts';
import { startApi, type TestApi } from '../helpers/http.ts';

interface Event {
  seq: number;
  at: string;
  type: string;
  email_id: string;
  folder_id?: string;
}

/** A real `ws` client that keeps every event it is sent. */
interface Client {
  readonly socket: WebSocket;
  readonly events: Event[];
  /**
   * Resolves once `count` events arrived, running `settle` (the consumers' work) before each look;
   * 10 s is a guard against a hang, not an expected wait.
   */
  waitFor(count: number, settle?: () => Promise<unknown>): Promise<Event[]>;
}

async function listen(api: TestApi): Promise<string> {
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  return `ws://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
}

async function connect(
  t: Parameters<typeof startApi>[0],
  url: string,
  options: { protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<Client> {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
  t.teardown(() => socket.terminate());
  const events: Event[] = [];
  socket.on('message', (data: Buffer) => {
    events.push(JSON.parse(data.toString('utf8')) as Event);
  });
  await once(socket, 'open');
  return {
    socket,
    events,
    async waitFor(count, settle = () => Promise.resolve()) {
      await pollUntil(
        `${count} events`,
        async () => {
          await settle();
          return events.length >= count;
        },
        { ms: 10_000, intervalMs: 10, describe: () => Promise.resolve(`${events.length} arrived`) },
      );
      return events.slice(0, count);
    },
  };
}

/** The status of a refused handshake. */
async function refused(url: string, protocols: string[] = []): Promise<number> {
  const socket = new WebSocket(url, protocols);
  socket.on('error', () => undefined);
  const [request, response] = (await once(socket, 'unexpected-response')) as [ClientRequest, IncomingMessage];
  response.resume();
  request.destroy();
  return response.statusCode ?? 0;
}

const letter = (to: string, subject: string) => ({
  to: [{ name: '', email: `${to}@tessera.local` }],
  subject,
  body: 'See you there.',
});

t.test('a mail delivered reaches its recipient over the socket, and only them', async (t) => {
  const api = await startApi(t);
  const base = await listen(api);
  const alice = await connect(t, `${base}/v1/events`, {
    protocols: [EVENTS_PROTOCOL, `bearer.${await api.token('alice')}`],
  });
  t.equal(alice.socket.protocol, EVENTS_PROTOCOL, 'the server answers our protocol, never the token');
  const carol = await connect(t, `${base}/v1/events`, {
    headers: { authorization: `Bearer ${await api.token('carol')}` },
  });

  const sent = await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'Lunch') });
  t.equal(sent.statusCode, 201);
  const [event] = await alice.waitFor(1, () => api.mail.settle());
  t.match(event, { type: 'message.new', folder_id: 'inbox', email_id: String, seq: Number, at: String });
  const inbox = await api.call('GET', '/v1/folders/inbox/messages', { user: 'alice' });
  t.equal(inbox.json<{ data: { email_id: string }[] }>().data[0]?.email_id, event?.email_id);

  // Carol's own change arrives on her socket: so had Alice's mail reached it, it would be there first.
  await api.call('POST', '/v1/messages', { user: 'carol', body: letter('dave', 'Hi') });
  const [own] = await carol.waitFor(1);
  t.match(own, { type: 'message.new', folder_id: 'sent' });
  t.equal(carol.events.length, 1, 'carol never sees alice’s mail');
  t.equal(alice.events.length, 1);
});

t.test('resume with since: the missed events, no duplicate, the same ids as the long poll', async (t) => {
  const api = await startApi(t);
  const base = await listen(api);
  const token = await api.token('alice');
  const first = await connect(t, `${base}/v1/events`, { protocols: [EVENTS_PROTOCOL, `bearer.${token}`] });
  await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'One') });
  const [one] = await first.waitFor(1, () => api.mail.settle());
  first.socket.close();
  await once(first.socket, 'close');

  // Offline: two more arrive, one is read.
  await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'Two') });
  await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'Three') });
  await api.mail.settle();
  const two = (await api.call('GET', '/v1/folders/inbox/messages', { user: 'alice' })).json<{
    data: { email_id: string }[];
  }>().data[0];
  await api.call('PATCH', `/v1/messages/${two?.email_id ?? ''}`, { user: 'alice', body: { is_read: true } });

  const polled = (
    await api.call('GET', `/v1/events/poll?since=${one?.seq ?? 0}&wait_ms=0`, { user: 'alice' })
  ).json<{
    data: Event[];
  }>().data;
  t.equal(polled.length, 3);
  const again = await connect(t, `${base}/v1/events?since=${one?.seq ?? 0}`, {
    protocols: [EVENTS_PROTOCOL, `bearer.${token}`],
  });
  t.same(await again.waitFor(3), polled, 'the socket replays exactly what the poll returns');
  t.same(
    polled.map((e) => e.type),
    ['message.new', 'message.new', 'message.updated'],
  );

  // Then live, after the replay.
  await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'Four') });
  const all = await again.waitFor(4, () => api.mail.settle());
  t.ok(
    all.every((e, i) => i === 0 || e.seq > (all[i - 1]?.seq ?? 0)),
    'in seq order, no duplicate',
  );
  // Before a check that nothing more came: under load it can let a failure pass, never fail.
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(again.events.length, 4);
});

t.test('without since the socket carries only what happens after it opened', async (t) => {
  const api = await startApi(t);
  const base = await listen(api);
  await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'Before') });
  await api.mail.settle();
  const alice = await connect(t, `${base}/v1/events`, {
    headers: { authorization: `Bearer ${await api.token('alice')}` },
  });
  await api.call('POST', '/v1/messages', { user: 'bob', body: letter('alice', 'After') });
  const [event] = await alice.waitFor(1, () => api.mail.settle());
  const detail = await api.call('GET', `/v1/messages/${event?.email_id ?? ''}`, { user: 'alice' });
  t.equal(detail.json<{ subject: string }>().subject, 'After');
});

t.test('events another process writes reach the socket through the periodic read', async (t) => {
  const api = await startApi(t, { eventCatchUpMs: 50 });
  const base = await listen(api);
  const alice = await connect(t, `${base}/v1/events`, {
    headers: { authorization: `Bearer ${await api.token('alice')}` },
  });
  const other = openEmbeddedMail({ dataDir: api.mail.dataDir, synchronous: 'normal' });
  t.teardown(() => other.close());
  await other.push.publish('alice', { type: 'message.deleted', email_id: 'from-elsewhere' });
  const [event] = await alice.waitFor(1);
  t.match(event, { type: 'message.deleted', email_id: 'from-elsewhere' });
});

t.test('the handshake is refused without a token (401) or without the mail scope (403)', async (t) => {
  const api = await startApi(t);
  const base = await listen(api);
  t.equal(await refused(`${base}/v1/events`), 401);
  t.equal(await refused(`${base}/v1/events`, [EVENTS_PROTOCOL, 'bearer.garbage']), 401);
  t.equal(
    await refused(`${base}/v1/events`, [EVENTS_PROTOCOL, `bearer.${await api.token('alice', ['trade'])}`]),
    403,
  );
  // Never a token in the URL (URLs are logged): not on the socket, not on the long poll.
  t.equal(await refused(`${base}/v1/events?access_token=${await api.token('alice')}`), 401);
  const poll = await api.app.inject({
    method: 'GET',
    url: `/v1/events/poll?access_token=${await api.token('alice')}`,
  });
  t.equal(poll.statusCode, 401);
});
