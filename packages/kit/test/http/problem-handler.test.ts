import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { ProblemError, kitErrors } from '../../src/errors.ts';
import { testApp } from './helpers.ts';
import type { Problem } from './helpers.ts';

t.test('unknown route is a 404 problem', async (t) => {
  const app = await testApp();
  const res = await app.inject({ method: 'GET', url: '/nope?x=1' });
  t.equal(res.statusCode, 404);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  t.same(res.json(), {
    title: 'Not found',
    detail: 'no route for GET /nope',
    status: 404,
    code: 'KIT_NOT_FOUND',
  });
});

t.test('a thrown ProblemError keeps its status, headers and extra members', async (t) => {
  const app = await testApp();
  app.get('/conflict', async () => {
    throw new ProblemError({
      code: 'EX_CANNOT_CANCEL',
      status: 409,
      title: 'Conflict',
      detail: 'order already matched',
      extra: { orderId: 7, status: 'ignored' },
      headers: { 'x-hint': 'look' },
    });
  });
  const res = await app.inject({ method: 'GET', url: '/conflict' });
  t.equal(res.statusCode, 409);
  t.equal(res.headers['x-hint'], 'look');
  t.same(res.json(), {
    orderId: 7,
    title: 'Conflict',
    detail: 'order already matched',
    status: 409,
    code: 'EX_CANNOT_CANCEL',
  });
});

t.test('body problems: malformed JSON 400, wrong type 415, too large 413', async (t) => {
  const app = await testApp({ bodyLimit: 64 });
  app.post('/echo', async (request) => request.body);

  const bad = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/json' },
    payload: '{"a":',
  });
  t.equal(bad.statusCode, 400);
  t.match(bad.json<Problem>(), {
    code: 'KIT_VALIDATION',
    status: 400,
    detail: 'request body is not valid JSON',
  });

  const xml = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/xml' },
    payload: '<a/>',
  });
  t.equal(xml.statusCode, 415);
  t.match(xml.json<Problem>(), {
    code: 'KIT_UNSUPPORTED_MEDIA_TYPE',
    status: 415,
    detail: /application\/xml/,
  });

  const text = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'text/plain' },
    payload: '{"a":1}',
  });
  t.equal(text.statusCode, 415, 'JSON sent as text/plain is not parsed as text');
  t.match(text.json<Problem>(), { code: 'KIT_UNSUPPORTED_MEDIA_TYPE', detail: /text\/plain/ });

  const big = await app.inject({ method: 'POST', url: '/echo', payload: { text: 'x'.repeat(200) } });
  t.equal(big.statusCode, 413);
  t.match(big.json<Problem>(), { code: 'KIT_PAYLOAD_TOO_LARGE', status: 413, detail: /64 bytes/ });
  t.match(big.headers['content-type'], /^application\/problem\+json/);
});

t.test('an unexpected error is a generic 500: the cause is logged, never sent', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = await testApp({ logger: pino({ level: 'info' }, sink) });
  app.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  const res = await app.inject({ method: 'GET', url: '/boom' });
  t.equal(res.statusCode, 500);
  const body = res.json<Problem>();
  t.match(body, { code: 'KIT_INTERNAL', status: 500, title: 'Internal server error' });
  t.notMatch(res.body, /hunter2/);
  t.notMatch(res.body, /at .*\.ts:\d+/, 'no stack frames');
  t.notOk('stack' in body);
  t.match(lines.join(''), /hunter2/, 'the real error is logged');
});

t.test('client errors from other plugins keep their status', async (t) => {
  const app = await testApp();
  app.get('/teapot', async () => {
    throw Object.assign(new Error('short and stout'), { statusCode: 418, code: 'TEA_POT' });
  });
  app.get('/forbidden', async () => {
    throw Object.assign(new Error('no'), { statusCode: 403 });
  });
  const tea = await app.inject({ method: 'GET', url: '/teapot' });
  t.same(tea.json(), { title: "I'm a Teapot", detail: 'short and stout', status: 418, code: 'TEA_POT' });
  const forbidden = await app.inject({ method: 'GET', url: '/forbidden' });
  t.match(forbidden.json<Problem>(), { status: 403, code: 'KIT_FORBIDDEN', detail: 'no' });
  t.equal(kitErrors.table.KIT_FORBIDDEN.status, 403);
});

t.test('a known path asked with another method is 405 with Allow; an unknown path is 404', async (t) => {
  const { createHttpApp, createAuthenticator, createLogger } = await import('../../src/index.ts');
  const app = await createHttpApp({
    name: 't',
    version: '0',
    logger: createLogger({ level: 'silent', name: 't' }),
    authenticator: createAuthenticator({ secret: 'x'.repeat(40) }),
  });
  app.get('/items/:id', async () => ({ ok: true }));
  app.post('/items/:id', async () => ({ ok: true }));
  await app.ready();
  t.teardown(() => app.close());
  const wrong = await app.inject({ method: 'DELETE', url: '/items/7' });
  t.equal(wrong.statusCode, 405);
  t.equal(wrong.headers.allow, 'GET, HEAD, POST');
  t.equal(wrong.json().code, 'KIT_METHOD_NOT_ALLOWED');
  const missing = await app.inject({ method: 'GET', url: '/nothing' });
  t.equal(missing.statusCode, 404);
});
