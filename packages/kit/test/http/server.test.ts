import t from 'tap';
import { checkingIntervalFor } from '../../src/http/server.ts';
import { listen, parseResponses, rawExchange, testApp, token } from './helpers.ts';
import type { Problem } from './helpers.ts';

const deadline = 600;
const once = { answers: 1 } as const;

async function edgeApp(t: Parameters<typeof listen>[0], requestTimeoutMs = deadline) {
  const app = await testApp({ requestTimeoutMs, maxUrlLength: 1024 });
  app.post('/echo', async (request) => ({ got: request.body }));
  app.post('/secure', { config: { auth: { scope: 'trade' } } }, async (request) => ({ got: request.body }));
  app.get('/items', async () => ({ ok: true }));
  app.get('/secure', { config: { auth: { scope: 'trade' } } }, async () => ({ ok: true }));
  // A long poll: the request arrived whole, the answer takes longer than the request deadline.
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, deadline * 2));
    return { ok: true };
  });
  return listen(t, app);
}

/** Headers announcing a 40-byte body, then 30 bytes 150 ms apart (4.5 s; the body never completes). */
function trickle(path: string, headers = ''): Array<string | number> {
  const start = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}Content-Length: 40\r\n\r\n`;
  return [start, ...Array.from({ length: 30 }, (_, i) => [150, i === 0 ? '{' : ' ']).flat()];
}

function problemOf(text: string): { status: number; headers: Record<string, string>; body: Problem } {
  const [response] = parseResponses(text);
  if (response === undefined) throw new Error(`no response in ${JSON.stringify(text)}`);
  return { ...response, body: JSON.parse(response.body) as Problem };
}

t.test('a body trickling in gets a 408 problem at the deadline and the connection closes', async (t) => {
  const port = await edgeApp(t);
  const bearer = `Authorization: Bearer ${await token(['trade'])}\r\n`;
  for (const [name, chunks] of [
    ['public route', trickle('/echo')],
    ['with a valid token', trickle('/secure', bearer)],
  ] as const) {
    const res = await rawExchange(port, chunks, { closed: true });
    t.ok(res.closedAfterMs !== undefined, `${name}: the server closed the connection`);
    // Load only makes the close later: this bound can let a failure pass, never fail a good server.
    const late = (res.closedAfterMs ?? -Infinity) - deadline;
    t.ok(late >= -50, `${name}: closed ${late} ms after the deadline, not before`);
    // The trickle's pauses slow down with the server's timers: no figure the machine must meet.
    t.notOk(res.sentAll, `${name}: closed while the body was still trickling in`);
    const { status, headers, body } = problemOf(res.text);
    t.equal(status, 408, name);
    t.match(headers['content-type'], /^application\/problem\+json/, name);
    t.match(body, { status: 408, code: 'KIT_REQUEST_TIMEOUT', title: 'Request timeout' }, name);
  }
});

t.test('headers that never end get the same deadline', async (t) => {
  const port = await edgeApp(t);
  const res = await rawExchange(port, ['GET /items HTTP/1.1\r\nHost: x\r\n', 200, 'X-Slow: 1\r\n'], {
    closed: true,
  });
  // Node's own headers timeout would be 60 s: a close within the cap is the deadline's.
  t.ok(res.closedAfterMs !== undefined, `closed after ${res.closedAfterMs} ms`);
  t.equal(problemOf(res.text).body.code, 'KIT_REQUEST_TIMEOUT');
});

// A deadline far past the trickle and the cap: only the early close can end these exchanges.
const noDeadline = 60_000;

t.test('a 401 answered before the body arrives closes the connection', async (t) => {
  const port = await edgeApp(t, noDeadline);
  const res = await rawExchange(port, trickle('/secure'), { closed: true });
  const { status, headers, body } = problemOf(res.text);
  t.equal(status, 401);
  t.equal(body.code, 'KIT_UNAUTHORIZED');
  t.equal(headers['connection'], 'close');
  t.ok(res.closedAfterMs !== undefined, 'closed by the server');
  t.notOk(res.sentAll, 'without waiting for the body');
});

t.test('a 403 answered before the body arrives closes the connection', async (t) => {
  const port = await edgeApp(t, noDeadline);
  const res = await rawExchange(
    port,
    trickle('/secure', `Authorization: Bearer ${await token(['mail'])}\r\n`),
    {
      closed: true,
    },
  );
  const { status, headers } = problemOf(res.text);
  t.equal(status, 403);
  t.equal(headers['connection'], 'close');
  t.ok(res.closedAfterMs !== undefined, 'closed by the server');
  t.notOk(res.sentAll, 'without waiting for the body');
});

t.test('a request that arrived whole keeps its connection', async (t) => {
  const port = await edgeApp(t);
  const get = 'GET /items HTTP/1.1\r\nHost: x\r\n\r\n';
  // The second answer on the same connection is the proof it was kept.
  const res = await rawExchange(port, [get, 50, get], { answers: 2 });
  // Can only miss a close that comes later, never fail a good server.
  t.equal(res.closedAfterMs, undefined, 'still open');
  t.same(
    parseResponses(res.text).map((r) => r.status),
    [200, 200],
  );
});

t.test('a request without a body keeps its connection after a 401', async (t) => {
  const port = await edgeApp(t);
  const get = 'GET /secure HTTP/1.1\r\nHost: x\r\n\r\n';
  const res = await rawExchange(port, [get, 50, get], { answers: 2 });
  // As above: the second 401 proves the connection was kept.
  t.equal(res.closedAfterMs, undefined, 'still open');
  t.same(
    parseResponses(res.text).map((r) => r.status),
    [401, 401],
  );
});

t.test('the deadline is for receiving the request, not for answering it', async (t) => {
  const port = await edgeApp(t);
  const res = await rawExchange(port, ['GET /slow HTTP/1.1\r\nHost: x\r\n\r\n'], once);
  t.equal(problemOf(res.text).status, 200);
});

t.test('a request target over the limit is a 414 problem', async (t) => {
  const port = await edgeApp(t);
  const res = await rawExchange(port, [`GET /items?q=${'a'.repeat(1100)} HTTP/1.1\r\nHost: x\r\n\r\n`], once);
  const { status, headers, body } = problemOf(res.text);
  t.equal(status, 414);
  t.match(headers['content-type'], /^application\/problem\+json/);
  t.match(body, { status: 414, code: 'KIT_URI_TOO_LONG', detail: /1024 characters/ });
  const ok = await rawExchange(port, [`GET /items?q=${'a'.repeat(900)} HTTP/1.1\r\nHost: x\r\n\r\n`], once);
  t.equal(problemOf(ok.text).status, 200, 'a target under the limit passes');
});

t.test('an HTTP/1.1 request without Host is a 400 problem, not a bare status line', async (t) => {
  const port = await edgeApp(t);
  const res = await rawExchange(port, ['GET /items HTTP/1.1\r\n\r\n'], once);
  const { status, headers, body } = problemOf(res.text);
  t.equal(status, 400);
  t.match(headers['content-type'], /^application\/problem\+json/);
  t.match(body, { code: 'KIT_MALFORMED_REQUEST', detail: /Host/ });
  const old = await rawExchange(port, ['GET /items HTTP/1.0\r\n\r\n'], once);
  t.equal(problemOf(old.text).status, 200, 'HTTP/1.0 needs none');
});

t.test('413 and 415 over a socket are problems, and the unread body is not waited for', async (t) => {
  // The deadline past the cap: a close within the cap is the early close, not the deadline's.
  const app = await testApp({ bodyLimit: 64, requestTimeoutMs: noDeadline });
  app.post('/echo', async (request) => ({ got: request.body }));
  const port = await listen(t, app);
  for (const [status, code, headers] of [
    [413, 'KIT_PAYLOAD_TOO_LARGE', 'Content-Type: application/json\r\nContent-Length: 1000\r\n'],
    [415, 'KIT_UNSUPPORTED_MEDIA_TYPE', 'Content-Type: text/plain\r\nContent-Length: 1000\r\n'],
  ] as const) {
    const res = await rawExchange(port, [`POST /echo HTTP/1.1\r\nHost: x\r\n${headers}\r\n{"a":`], {
      closed: true,
    });
    const response = problemOf(res.text);
    t.equal(response.status, status);
    t.match(response.headers['content-type'], /^application\/problem\+json/);
    t.match(response.body, { status, code });
    t.ok(res.closedAfterMs !== undefined, `${status}: closed, the body never sent in full`);
  }
});

t.test('the deadline is checked often enough to hold to a tenth', async (t) => {
  t.equal(checkingIntervalFor(10_000), 1000);
  t.equal(checkingIntervalFor(600), 60);
  t.equal(checkingIntervalFor(100), 25);
});
