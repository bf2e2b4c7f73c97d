import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createAuthenticator } from '../../src/auth.ts';
import { kitErrors } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { installFastFront } from '../../src/http/fast-front.ts';
import { FastRoutes } from '../../src/http/fast-routes.ts';
import { listen, parseResponses, rawExchange, secret, testApp, token } from './helpers.ts';
import type { ExchangeEnd } from './helpers.ts';

/**
 * The front over real sockets, each exchange on a fresh connection (a pooled client would send
 * every request after the first on a connection node:http already owns). The app: GET /items
 * with a fast answer (`get`), POST /items with a fast write that takes `{"fast": …}` bodies, and
 * GET /other with a full route only.
 */
async function appWith(t: Parameters<typeof listen>[0], fastFront = true) {
  const app = await testApp({ rateLimitEnabled: false, fastFront });
  const written: unknown[] = [];
  let get: () => string | undefined | Promise<string | undefined> = () => '{"from":"fast"}';
  app.addFastAnswer({
    route: '/items',
    scope: 'items:read',
    answer: (url) => (url === '/items' ? get() : undefined),
  });
  app.addFastWrite({
    route: '/items',
    scope: 'items:write',
    maxBodyBytes: 64,
    write(body) {
      if (typeof body !== 'object' || body === null || !('fast' in body)) return undefined;
      written.push(body);
      if (body.fast === 'bad header')
        return Promise.resolve({ body: '{}', headers: { 'x-echo': 'a\r\nSet-Cookie: s=evil' } });
      if (body.fast === 'refuse')
        return Promise.reject(kitErrors.KIT_RATE_LIMITED('slow down', undefined, { 'retry-after': '7' }));
      return Promise.resolve({ body: JSON.stringify({ from: 'fast', body }), headers: { 'x-fast': 'yes' } });
    },
  });
  app.get('/items', { config: { auth: { scope: 'items:read' } } }, async () => ({ from: 'full' }));
  app.post('/items', { config: { auth: { scope: 'items:write' } } }, async (request) => ({
    from: 'full',
    body: request.body,
  }));
  app.get('/other', async () => ({ from: 'other' }));
  const port = await listen(t, app);
  const auth = `Bearer ${await token(['items:read', 'items:write'])}`;
  // The first use of a token is the full route's (it verifies it); afterwards it is known.
  await fetch(`http://127.0.0.1:${port}/items`, { headers: { authorization: auth } });
  const getItems = `GET /items HTTP/1.1\r\nHost: h\r\nAuthorization: ${auth}\r\n\r\n`;
  const post = (body: string) =>
    `POST /items HTTP/1.1\r\nHost: h\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const exchange = async (chunks: ReadonlyArray<string | number>, end: ExchangeEnd) =>
    (await rawExchange(port, chunks, end)).text;
  return { app, port, written, getItems, post, exchange, setGet: (fn: typeof get) => (get = fn) };
}

const once = { answers: 1 } as const;
const sameDate = (text: string) => text.replace(/Date: [^\r]+/g, 'Date: <date>');

t.test('the front’s answers are node:http’s, byte for byte', async (t) => {
  const front = await appWith(t, true);
  const node = await appWith(t, false);
  for (const request of [front.getItems, front.post('{"fast":1}'), front.post('{"fast":"refuse"}')]) {
    const viaNode = request.replace(/Bearer \S+/, /Bearer \S+/.exec(node.getItems)![0]);
    const [a, b] = [await front.exchange([request], once), await node.exchange([viaNode], once)];
    t.not(a, '', 'answered');
    t.equal(sameDate(a), sameDate(b), request.split('\r\n')[0] ?? '');
  }
  t.match(
    await front.exchange([front.post('{"fast":"refuse"}')], once),
    /^HTTP\/1\.1 429 Too Many Requests\r\nretry-after: 7\r\n/,
  );
});

t.test('pipelined requests are answered in order, across the hand-over to node:http', async (t) => {
  const { getItems, post, exchange, written } = await appWith(t);
  const other = 'GET /other HTTP/1.1\r\nHost: h\r\n\r\n';
  const answers = parseResponses(
    await exchange([getItems + post('{"fast":2}') + other + getItems + post('{"fast":3}')], { answers: 5 }),
  );
  t.same(
    answers.map((a) => a.body),
    [
      '{"from":"fast"}',
      '{"from":"fast","body":{"fast":2}}',
      '{"from":"other"}',
      '{"from":"fast"}',
      '{"from":"fast","body":{"fast":3}}',
    ],
  );
  t.same(written, [{ fast: 2 }, { fast: 3 }], 'each write done once');
});

t.test('each request is authorized by its own Authorization header, on one connection', async (t) => {
  const { getItems, exchange } = await appWith(t);
  // The same length as the known header, one byte apart: the connection's last header is not it.
  // Not the last character: its low bits are base64url padding, so 1 in 16 such forgeries still
  // verify; the eleventh from the end is all signature.
  const forged = getItems.replace(
    /(Bearer \S*)(\S)(\S{10})\r\n/,
    (_, head: string, changed: string, tail: string) => `${head}${changed === 'A' ? 'B' : 'A'}${tail}\r\n`,
  );
  t.not(forged, getItems);
  const answers = parseResponses(await exchange([getItems + forged + getItems], { answers: 3 }));
  t.same(
    answers.map((a) => [a.status, a.body]),
    [
      [200, '{"from":"fast"}'],
      [401, answers[1]?.body],
      // node:http's side offers a request to the fast routes too (fast-routes.ts#serve).
      [200, '{"from":"fast"}'],
    ],
  );
  t.match(answers[1]?.headers['content-type'], /problem\+json/);
});

t.test(
  'many different Authorization headers, and one with 5,000 spaces after the token, are each read',
  async (t) => {
    const { getItems, exchange } = await appWith(t);
    // The bearer rule allows spaces after the token: 1,100 different headers, one token.
    const heads = Array.from({ length: 1_100 }, (_, i) =>
      getItems.replace(/(Bearer \S+)/, `$1${' '.repeat(i)}`),
    );
    heads.push(getItems.replace(/(Bearer \S+)/, `$1${' '.repeat(5_000)}`));
    const answers = parseResponses(await exchange([heads.join('')], { answers: heads.length }));
    t.equal(answers.length, heads.length);
    t.ok(
      answers.every((a) => a.status === 200 && a.body === '{"from":"fast"}'),
      'every one answered by the fast route',
    );
  },
);

t.test('a write the fast route declines reaches the full route whole, and nothing was done', async (t) => {
  const { getItems, post, exchange, written } = await appWith(t);
  const answers = parseResponses(await exchange([post('{"n":7}') + getItems], { answers: 2 }));
  t.same(
    answers.map((a) => a.body),
    ['{"from":"full","body":{"n":7}}', '{"from":"fast"}'],
  );
  t.same(written, []);
});

t.test('an answer that comes later keeps its place; one declined later goes to the full route', async (t) => {
  const { getItems, exchange, setGet } = await appWith(t);
  const later: Array<(body: string | undefined) => void> = [];
  // Two answers to come; node:http's path then asks again and gets none (the full route's).
  setGet(() => (later.length < 2 ? new Promise((resolve) => later.push(resolve)) : undefined));
  const reply = exchange([getItems + getItems + 'GET /other HTTP/1.1\r\nHost: h\r\n\r\n'], { answers: 3 });
  // The second request is read only once the first is answered: one promise at a time.
  while (later.length < 1) await new Promise((r) => setImmediate(r));
  t.equal(later.length, 1);
  later[0]!('{"n":1}');
  while (later.length < 2) await new Promise((r) => setImmediate(r));
  later[1]!(undefined);
  t.same(
    parseResponses(await reply).map((a) => a.body),
    ['{"n":1}', '{"from":"full"}', '{"from":"other"}'],
  );
});

t.test('a request that has not fully arrived, or is not HTTP, is node:http’s to answer', async (t) => {
  const { getItems, post, exchange } = await appWith(t);
  const split = post('{"fast":4}');
  const cut = split.indexOf('\r\n\r\n') + 4;
  t.same(
    parseResponses(await exchange([split.slice(0, cut), 50, split.slice(cut)], once)).map((a) => a.body),
    ['{"from":"fast","body":{"fast":4}}'],
  );
  const bad = await exchange([getItems + 'NOT HTTP\r\n\r\n'], { answers: 2 });
  const answers = parseResponses(bad);
  t.same(
    answers.map((a) => a.status),
    [200, 400],
  );
  t.match(answers[1]!.headers['content-type'], /problem\+json/);
  const huge = getItems.replace('Host: h', `Host: h\r\nX-Pad: ${'p'.repeat(20_000)}`);
  t.same(
    parseResponses(await exchange([huge], once)).map((a) => a.status),
    [431],
    'a head over node:http’s limit gets its 431',
  );
});

t.test('a write whose answer cannot be written closes the connection, and is never redone', async (t) => {
  const { post, exchange, written } = await appWith(t);
  t.equal(await exchange([post('{"fast":"bad header"}')], { closed: true }), '', 'nothing of it is sent');
  t.same(written, [{ fast: 'bad header' }], 'done once, not handed to node:http');
});

t.test('a client that ends its side gets its answer, then the connection closes', async (t) => {
  const { port, post } = await appWith(t);
  const text = await new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (received += d));
    socket.on('close', () => resolve(received));
    socket.end(post('{"fast":5}'));
  });
  t.same(
    parseResponses(text).map((a) => a.body),
    ['{"from":"fast","body":{"fast":5}}'],
  );
});

t.test('closing the app closes the front’s idle connections', async (t) => {
  const { app, port, getItems } = await appWith(t);
  const socket = connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write(getItems);
  await answered;
  // Without the front's share of closeIdleConnections this waits for the 72 s keep-alive timeout.
  await app.close();
  await closed;
  t.pass('closed');
});

t.test('an idle connection closes after the keep-alive timeout', async (t) => {
  const fast = new FastRoutes(createAuthenticator({ secret }), createLogger({ level: 'silent', name: 't' }));
  fast.addPublic({ route: '/p', answer: () => '{"p":1}' });
  const server = createServer(() => t.fail('node:http never sees this connection'));
  // A header deadline longer than rawExchange's 10 s guard: only the keep-alive timeout can close it.
  installFastFront(server, fast, { maxUrlLength: 100, keepAliveTimeoutMs: 50, headersTimeoutMs: 60_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { text, closedAfterMs } = await rawExchange(
    (server.address() as AddressInfo).port,
    ['GET /p HTTP/1.1\r\nHost: h\r\n\r\n'],
    { closed: true },
  );
  t.same(
    parseResponses(text).map((a) => a.body),
    ['{"p":1}'],
  );
  t.match(text, /Keep-Alive: timeout=0\r\n/);
  t.ok(closedAfterMs !== undefined, 'the server closed it');
});

/** A node:http server with the front alone in front of it, its keep-alive grace 0. */
async function frontOnly(
  t: Parameters<typeof listen>[0] & { fail(message: string): void },
  answer: () => string | Promise<string>,
  timing: { keepAliveTimeoutMs: number; headersTimeoutMs: number },
) {
  const fast = new FastRoutes(createAuthenticator({ secret }), createLogger({ level: 'silent', name: 't' }));
  fast.addPublic({ route: '/p', answer });
  const server = createServer(() => t.fail('node:http never sees this connection'));
  (server as typeof server & { keepAliveTimeoutBuffer: number }).keepAliveTimeoutBuffer = 0;
  installFastFront(server, fast, { maxUrlLength: 100, ...timing });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return (server.address() as AddressInfo).port;
}

t.test('a connection that sends nothing is closed at the header deadline', async (t) => {
  const port = await frontOnly(t, () => '{}', { keepAliveTimeoutMs: 60_000, headersTimeoutMs: 50 });
  const { text, closedAfterMs } = await rawExchange(port, [], { closed: true });
  t.equal(text, '');
  t.ok(closedAfterMs !== undefined, 'closed by the server');
});

t.test('an answer slower than the keep-alive timeout still arrives', async (t) => {
  // The first answer arms the keep-alive timer (50 ms); the second takes 300 ms.
  let calls = 0;
  const port = await frontOnly(
    t,
    () =>
      ++calls === 1 ? '{"fast":1}' : new Promise((resolve) => setTimeout(() => resolve('{"slow":1}'), 300)),
    { keepAliveTimeoutMs: 50, headersTimeoutMs: 5000 },
  );
  const get = 'GET /p HTTP/1.1\r\nHost: h\r\n\r\n';
  const { text } = await rawExchange(port, [get + get], { answers: 2 });
  t.same(
    parseResponses(text).map((a) => a.body),
    ['{"fast":1}', '{"slow":1}'],
  );
});
