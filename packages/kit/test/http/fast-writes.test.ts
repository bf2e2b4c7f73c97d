import t from 'tap';
import { ProblemError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import type { FastReply, FastWrite } from '../../src/http/fast-route-types.ts';
import { listen, parseResponses, rawExchange, testApp, token } from './helpers.ts';

/**
 * POST /items has a full route (which echoes the parsed body it validated) and a fast write that
 * takes bodies with `fast: true` and declines the others. Everything over real sockets: the fast
 * write is served at the edge, which `inject` never reaches.
 */
async function appWith(t: Parameters<typeof listen>[0], overrides: Parameters<typeof testApp>[0] = {}) {
  const app = await testApp({ rateLimitEnabled: false, requestTimeoutMs: 400, ...overrides });
  const written: unknown[] = [];
  let outcome: (body: unknown) => Promise<FastReply> = (body) =>
    Promise.resolve({ body: JSON.stringify({ from: 'fast', body }), headers: { 'x-fast': 'yes' } });
  const fast: FastWrite = {
    route: '/items',
    scope: 'items:write',
    maxBodyBytes: 64,
    write(body) {
      if (typeof body !== 'object' || body === null || !('fast' in body)) return undefined;
      written.push(body);
      return outcome(body);
    },
  };
  app.addFastWrite(fast);
  app.post(
    '/items',
    {
      config: { auth: { scope: 'items:write' } },
      schema: {
        body: {
          type: 'object',
          properties: { n: { type: 'integer' }, fast: { type: 'integer' }, pad: { type: 'string' } },
        },
      },
    },
    async (request) => ({ from: 'full', body: request.body }),
  );
  const port = await listen(t, app);
  const auth = `Bearer ${await token(['items:write'])}`;
  const post = async (body: string, headers: Record<string, string> = {}, path = '/items') => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', ...headers },
      body,
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      headers: res.headers,
      body: await res.text(),
    };
  };
  // The first use of a token is the full route's (it verifies it); afterwards it is known.
  await post('{"n":0}');
  return { app, port, auth, written, post, setOutcome: (fn: typeof outcome) => (outcome = fn) };
}

t.test('a plain body with a known token is answered by the fast write', async (t) => {
  const { post, written } = await appWith(t);
  const res = await post('{"fast":1}');
  t.same(
    { status: res.status, type: res.type, body: res.body, fastHeader: res.headers.get('x-fast') },
    {
      status: 200,
      type: 'application/json; charset=utf-8',
      body: '{"from":"fast","body":{"fast":1}}',
      fastHeader: 'yes',
    },
  );
  t.same(written, [{ fast: 1 }]);
});

t.test(
  'a body the fast write declines reaches the full route whole, as if fastify had read it',
  async (t) => {
    const { post, written } = await appWith(t);
    t.same(JSON.parse((await post('{"n":7}')).body), { from: 'full', body: { n: 7 } });
    const invalid = await post('{"n":"seven"}');
    t.equal(invalid.status, 400, "the full route's validation answers");
    t.match(JSON.parse(invalid.body), { code: 'KIT_VALIDATION', status: 400 });
    const notJson = await post('{"n":');
    t.equal(notJson.status, 400);
    t.match(JSON.parse(notJson.body), { code: 'KIT_VALIDATION', detail: 'request body is not valid JSON' });
    t.same(written, [], 'the fast write took none of them');
  },
);

t.test('everything but the plain case goes to the full route unread', async (t) => {
  const { post, written, port, auth } = await appWith(t);
  t.equal((await post('{"fast":1}', { authorization: '' })).status, 401, 'no token');
  const other = `Bearer ${await token(['other'])}`;
  await post('{"fast":1}', { authorization: other });
  t.equal(
    (await post('{"fast":1}', { authorization: other })).status,
    403,
    'a known token without the scope',
  );
  t.equal((await post('{"fast":1}', { 'content-type': 'text/plain' })).status, 415, 'another content type');
  t.equal(JSON.parse((await post('{"fast":1}', {}, '/items?x=1')).body).from, 'full', 'a query');
  t.equal(JSON.parse((await post(`{"fast":1,"pad":"${'x'.repeat(64)}"}`)).body).from, 'full', 'a long body');
  const chunked = await rawExchange(
    port,
    [
      `POST /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nA\r\n{"fast":1}\r\n0\r\n\r\n',
    ],
    { closed: true },
  );
  t.match(chunked.text, /"from":"full"/, 'a chunked body');
  const twice = await rawExchange(
    port,
    [
      `POST /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nauthorization: ${auth}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n{"fast":1}',
    ],
    { closed: true },
  );
  t.match(twice.text, /^HTTP\/1\.1 400 /, 'two Authorization headers');
  t.same(written, []);
});

t.test("the fast write's failures are answered as the full route would", async (t) => {
  const { post, setOutcome } = await appWith(t);
  setOutcome(() =>
    Promise.reject(
      new ProblemError({
        code: 'TEST_TAKEN',
        status: 409,
        title: 'Conflict',
        detail: 'already taken',
        extra: { item: 'a' },
        headers: { 'Retry-After': '3' },
      }),
    ),
  );
  const conflict = await post('{"fast":1}');
  t.equal(conflict.status, 409);
  t.equal(conflict.type, 'application/problem+json; charset=utf-8');
  t.equal(conflict.headers.get('retry-after'), '3');
  t.same(JSON.parse(conflict.body), {
    item: 'a',
    title: 'Conflict',
    detail: 'already taken',
    status: 409,
    code: 'TEST_TAKEN',
  });
  setOutcome(() => Promise.reject(new Error('disk on fire')));
  const crash = await post('{"fast":1}');
  t.equal(crash.status, 500);
  t.match(JSON.parse(crash.body), { code: 'KIT_INTERNAL', detail: /request id fast-1/ });
  t.notMatch(crash.body, /disk on fire/, 'the cause stays in the log');
});

t.test('an unexpected failure is logged with its request id', async (t) => {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    name: 'kit-test',
    destination: { write: (l: string) => lines.push(l) > 0 },
  });
  const { post, setOutcome } = await appWith(t, { logger });
  setOutcome(() => Promise.reject(new Error('disk on fire')));
  await post('{"fast":1}');
  t.ok(
    lines.some((line) => /disk on fire/.test(line) && /"reqId":"fast-1"/.test(line)),
    'the error and its request id are in the log',
  );
});

t.test('fast writes are counted in the request-duration metric of their route', async (t) => {
  // One series for the route: the setup's full-route request and the three fast ones.
  const { post, app } = await appWith(t);
  for (let i = 0; i < 3; i++) await post('{"fast":1}');
  t.match(
    await app.metrics.metrics(),
    /http_request_duration_seconds_count\{method="POST",route="\/items",status_code="200"\} 4/,
  );
});

t.test('the writes of one turn, their bodies read together, are each answered in order', async (t) => {
  const { port, auth, written } = await appWith(t);
  const post = (body: string) =>
    `POST /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\n\r\n${body}`;
  // Pipelined in one packet: parsed in one turn, so one immediate reads all three bodies; the
  // second is declined and goes to the full route between the two fast ones.
  const bodies = ['{"fast":1}', '{"n":2}', '{"fast":3}'];
  const res = await rawExchange(port, [bodies.map(post).join('')], { answers: 3 });
  t.same(
    parseResponses(res.text).map((r) => [r.status, JSON.parse(r.body) as unknown]),
    [
      [200, { from: 'fast', body: { fast: 1 } }],
      [200, { from: 'full', body: { n: 2 } }],
      [200, { from: 'fast', body: { fast: 3 } }],
    ],
  );
  t.same(written, [{ fast: 1 }, { fast: 3 }]);
});

t.test('a fast write followed by a stray byte gets its answer, then the 400', async (t) => {
  const { port, auth, written } = await appWith(t);
  const body = '{"fast":1}';
  const res = await rawExchange(
    port,
    [
      `POST /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}x`,
    ],
    { closed: true },
  );
  t.same(
    parseResponses(res.text).map((r) => r.status),
    [200, 400],
  );
  t.equal(written.length, 1);
});

t.test('a body that comes in a later packet than its headers is read as it comes', async (t) => {
  const { port, auth, written } = await appWith(t);
  const res = await rawExchange(
    port,
    [
      `POST /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 10\r\n\r\n{"fa',
      100,
      'st":1}',
    ],
    { answers: 1 },
  );
  t.same(
    parseResponses(res.text).map((r) => r.status),
    [200],
  );
  t.equal(written.length, 1, 'answered by the fast write');
});

t.test('a body that trickles in is cut off at the request deadline', async (t) => {
  const { port, auth, written } = await appWith(t);
  const res = await rawExchange(
    port,
    [
      `POST /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 10\r\n\r\n{"fa',
      // Far past the 400 ms deadline; the pause ends when the server closes.
      8_000,
      'st":1}',
    ],
    { closed: true },
  );
  t.match(res.text, /^HTTP\/1\.1 408 /);
  t.ok(res.closedAfterMs !== undefined, 'closed by the server');
  t.notOk(res.sentAll, 'at the deadline, before the rest of the body came');
  t.same(written, []);
});

t.test('no fast writes with rate limits on', async (t) => {
  const { post, written } = await appWith(t, { rateLimitEnabled: true });
  t.equal(JSON.parse((await post('{"fast":1}')).body).from, 'full');
  t.same(written, []);
});
