import t from 'tap';
import { clientErrorProblem, rawProblemResponse } from '../../src/http/client-errors.ts';
import { kitErrors } from '../../src/errors.ts';
import { listen, parseResponses, rawExchange, testApp } from './helpers.ts';
import type { Problem } from './helpers.ts';

async function recordingApp(t: Parameters<typeof listen>[0]) {
  const app = await testApp();
  const wins: unknown[] = [];
  // Answers on a later turn of the event loop, as a handler that writes to a store does.
  app.post('/wins', async (request) => {
    wins.push(request.body);
    await new Promise((resolve) => setImmediate(resolve));
    return { recorded: wins.length };
  });
  app.get('/items/:id', async () => ({ ok: true }));
  return { port: await listen(t, app), wins };
}

const post = (body: string) =>
  `POST /wins HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

t.test('a valid request followed by a stray byte gets its own answer, then a 400 problem', async (t) => {
  const { port, wins } = await recordingApp(t);
  const res = await rawExchange(port, [`${post('{"points":5}')}x`], { closed: true });
  t.ok(res.closedAfterMs !== undefined, 'the connection is closed');
  const [first, second, ...more] = parseResponses(res.text);
  t.equal(wins.length, 1, 'the request was handled once');
  t.equal(first?.status, 200, 'the recorded request gets its answer');
  t.same(JSON.parse(first?.body ?? 'null'), { recorded: 1 });
  t.equal(second?.status, 400, 'then the garbage gets a 400');
  t.match(second?.headers['content-type'], /^application\/problem\+json/);
  t.match(JSON.parse(second?.body ?? 'null'), {
    status: 400,
    code: 'KIT_MALFORMED_REQUEST',
    title: 'Malformed request',
  });
  t.same(more, []);
});

t.test('pipelined requests before the garbage are all answered, in order', async (t) => {
  const { port, wins } = await recordingApp(t);
  const res = await rawExchange(port, [`${post('{"a":1}')}${post('{"a":2}')}\x01`], { closed: true });
  t.same(
    parseResponses(res.text).map((r) => r.status),
    [200, 200, 400],
  );
  t.equal(wins.length, 2);
});

t.test("bytes that are not HTTP are a 400 problem, never fastify's own shape", async (t) => {
  const { port } = await recordingApp(t);
  for (const garbage of [
    'HELLO\r\n\r\n',
    'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    'GET / HTTP/9.9\r\n\r\n',
  ]) {
    const res = await rawExchange(port, [garbage], { closed: true });
    const [response] = parseResponses(res.text);
    t.equal(response?.status, 400, JSON.stringify(garbage));
    t.match(response?.headers['content-type'], /^application\/problem\+json/);
    const body = JSON.parse(response?.body ?? 'null') as Problem;
    t.match(body, {
      status: 400,
      code: 'KIT_MALFORMED_REQUEST',
      title: 'Malformed request',
      detail: /not valid HTTP/,
    });
    t.notOk('statusCode' in body);
    t.ok(res.closedAfterMs !== undefined, 'closed');
  }
});

t.test('headers over the limit are a 431 problem', async (t) => {
  const { port } = await recordingApp(t);
  const res = await rawExchange(
    port,
    [`GET /items/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`],
    { answers: 1 },
  );
  const [response] = parseResponses(res.text);
  t.equal(response?.status, 431);
  t.match(JSON.parse(response?.body ?? 'null'), { status: 431, code: 'KIT_HEADERS_TOO_LARGE' });
});

t.test('a path that is not valid percent-encoding is a 400 problem', async (t) => {
  const { port } = await recordingApp(t);
  const res = await rawExchange(port, ['GET /items/%zz HTTP/1.1\r\nHost: x\r\n\r\n'], { answers: 1 });
  const [response] = parseResponses(res.text);
  t.equal(response?.status, 400);
  t.match(response?.headers['content-type'], /^application\/problem\+json/);
  t.match(JSON.parse(response?.body ?? 'null'), {
    code: 'KIT_MALFORMED_REQUEST',
    detail: /percent-encoding/,
  });
});

t.test('rawProblemResponse frames the body and closes', async (t) => {
  const text = rawProblemResponse(kitErrors.KIT_REQUEST_TIMEOUT('late é'));
  const [response] = parseResponses(Buffer.from(text).toString('latin1'));
  t.equal(response?.status, 408);
  t.equal(response?.headers['connection'], 'close');
  t.equal(
    Number(response?.headers['content-length']),
    Buffer.byteLength(
      JSON.stringify({
        title: 'Request timeout',
        detail: 'late é',
        status: 408,
        code: 'KIT_REQUEST_TIMEOUT',
      }),
    ),
  );
  t.equal(clientErrorProblem(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }), 1).status, 431);
});
