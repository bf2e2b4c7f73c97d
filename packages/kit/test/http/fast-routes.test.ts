import { connect } from 'node:net';
import { metrics, propagation, trace } from '@opentelemetry/api';
import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { kitErrors } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import type { Telemetry } from '../../src/telemetry.ts';
import type { FastAnswer } from '../../src/http/fast-route-types.ts';
import { listen, rawExchange, testApp, token } from './helpers.ts';

/** An app whose GET /items answers `full`, and a fast answer `fast` for /items (when `offer`). */
async function appWith(t: Parameters<typeof listen>[0], overrides: Parameters<typeof testApp>[0] = {}) {
  const app = await testApp({ rateLimitEnabled: false, ...overrides });
  const calls: string[] = [];
  let offer: () => string | undefined = () => '{"from":"fast"}';
  const fast: FastAnswer = {
    route: '/items',
    scope: 'items:read',
    answer(url) {
      calls.push(url);
      return url === '/items' ? offer() : undefined;
    },
  };
  app.addFastAnswer(fast);
  app.get('/items', { config: { auth: { scope: 'items:read' } } }, async () => ({ from: 'full' }));
  const port = await listen(t, app);
  const get = (headers: Record<string, string> = {}, path = '/items') =>
    fetch(`http://127.0.0.1:${port}${path}`, { headers }).then(async (res) => ({
      status: res.status,
      body: await res.text(),
      type: res.headers.get('content-type'),
    }));
  return { app, port, calls, get, setOffer: (fn: () => string | undefined) => (offer = fn) };
}

t.test(
  'a verified token with the scope gets the fast answer; the first use of a token the full route',
  async (t) => {
    const { get, calls } = await appWith(t);
    const auth = { authorization: `Bearer ${await token(['items:read'])}` };
    t.same(await get(auth), {
      status: 200,
      body: '{"from":"full"}',
      type: 'application/json; charset=utf-8',
    });
    t.same(calls, [], 'a token not verified yet is never looked at by the fast answer');
    t.same(await get(auth), {
      status: 200,
      body: '{"from":"fast"}',
      type: 'application/json; charset=utf-8',
    });
    t.same(await get(auth, '/items?x=1'), {
      status: 200,
      body: '{"from":"full"}',
      type: 'application/json; charset=utf-8',
    });
    t.same(calls, ['/items', '/items?x=1']);
  },
);

t.test('everything but the plain case takes the full route, which answers failures', async (t) => {
  const { get, port, setOffer } = await appWith(t);
  const reader = `Bearer ${await token(['items:read'])}`;
  const other = `Bearer ${await token(['other'])}`;
  await get({ authorization: reader });
  await get({ authorization: other });
  t.equal((await get({})).status, 401, 'no token');
  t.equal((await get({ authorization: other })).status, 403, 'a verified token without the scope');
  const twice = await rawExchange(
    port,
    [
      `GET /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${reader}\r\nauthorization: ${reader}\r\nConnection: close\r\n\r\n`,
    ],
    { closed: true },
  );
  t.match(twice.text, /^HTTP\/1\.1 400 /, 'two Authorization headers: the full route refuses them');
  const withBody = await rawExchange(
    port,
    [
      `GET /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${reader}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ],
    { closed: true },
  );
  t.match(withBody.text, /"from":"full"/, 'a GET with a body');
  setOffer(() => undefined);
  t.equal((await get({ authorization: reader })).body, '{"from":"full"}', 'the answer declined');
  setOffer(() => {
    throw new Error('store down');
  });
  t.equal((await get({ authorization: reader })).body, '{"from":"full"}', 'the answer threw');
});

t.test('fast answers are counted in the request-duration metric of their route', async (t) => {
  const { get, app } = await appWith(t);
  const auth = { authorization: `Bearer ${await token(['items:read'])}` };
  for (let i = 0; i < 3; i++) await get(auth);
  const text = await app.metrics.metrics();
  t.match(text, /http_request_duration_seconds_count\{method="GET",route="\/items",status_code="200"\} 3$/m);
});

t.test('no fast answers with rate limits, tracing or a debug request log', async (t) => {
  const auth = { authorization: `Bearer ${await token(['items:read'])}` };
  // The API's no-op tracer and meter: tracing is on as far as the app can tell, nothing is exported.
  const telemetry: Telemetry = {
    tracer: trace.getTracer('kit-test'),
    meter: metrics.getMeter('kit-test'),
    propagator: propagation,
    shutdown: () => Promise.resolve(),
  };
  const variants = {
    'rate limits': { rateLimitEnabled: true },
    tracing: { telemetry },
    'debug log': {
      logger: createLogger({ level: 'debug', name: 'kit-test', destination: { write: () => true } }),
    },
  };
  for (const [name, overrides] of Object.entries(variants)) {
    const { get, calls } = await appWith(t, overrides);
    await get(auth);
    t.equal((await get(auth)).body, '{"from":"full"}', name);
    t.same(calls, [], name);
  }
});

t.test('a public fast answer needs no token, ignores one, and declines to the full route', async (t) => {
  const app = await testApp({ rateLimitEnabled: false });
  const calls: string[] = [];
  let offer: () => string | undefined = () => '{"from":"fast"}';
  app.addPublicFastAnswer({
    route: '/book',
    answer(url) {
      calls.push(url);
      return url === '/book' ? offer() : undefined;
    },
  });
  app.get('/book', async () => ({ from: 'full' }));
  const port = await listen(t, app);
  const get = (headers: Record<string, string> = {}, path = '/book') =>
    fetch(`http://127.0.0.1:${port}${path}`, { headers }).then((res) => res.text());
  t.equal(await get(), '{"from":"fast"}', 'no token');
  t.equal(await get({ authorization: 'Bearer not-a-token' }), '{"from":"fast"}', 'a token, ignored');
  t.equal(await get({}, '/book?depth=1'), '{"from":"full"}', 'a target it does not take');
  offer = () => undefined;
  t.equal(await get(), '{"from":"full"}', 'the answer declined');
  offer = () => {
    throw new Error('book gone');
  };
  t.equal(await get(), '{"from":"full"}', 'the answer threw');
  t.same(calls, ['/book', '/book', '/book?depth=1', '/book', '/book']);
  // Two answered at the edge, three by the full route: one series for the route.
  const text = await app.metrics.metrics();
  t.match(text, /http_request_duration_seconds_count\{method="GET",route="\/book",status_code="200"\} 5$/m);
});

t.test('a public answer still to come: sent when it comes, else the full route answers', async (t) => {
  const app = await testApp({ rateLimitEnabled: false });
  let later: Promise<string | undefined> = Promise.resolve('{"from":"later"}');
  app.addPublicFastAnswer({ route: '/book', answer: () => later });
  let fullRoutes = 0;
  app.get('/book', async () => {
    fullRoutes++;
    return { from: 'full' };
  });
  const port = await listen(t, app);
  const get = () => fetch(`http://127.0.0.1:${port}/book`).then((res) => res.text());
  t.equal(await get(), '{"from":"later"}', 'sent once it came');
  later = Promise.resolve(undefined);
  t.equal(await get(), '{"from":"full"}', 'declined later: the full route');
  later = Promise.reject(new Error('book gone'));
  later.catch(() => undefined);
  t.equal(await get(), '{"from":"full"}', 'failed later: the full route');
  t.equal(fullRoutes, 2);
});

t.test('an answer still to come: sent when it comes, else the full route answers', async (t) => {
  const app = await testApp({ rateLimitEnabled: false });
  let later: () => Promise<string | undefined> = () => Promise.resolve('{"from":"later"}');
  const asked: string[] = [];
  app.addFastAnswer({
    route: '/items',
    scope: 'items:read',
    answer: (url) => (url === '/items' ? later() : undefined),
  });
  // Never tried once an answer before it has taken the request with a promise.
  app.addFastAnswer({
    route: '/items',
    scope: 'items:read',
    answer(url) {
      asked.push(url);
      return '{"from":"second"}';
    },
  });
  let fullRoutes = 0;
  app.get('/items', { config: { auth: { scope: 'items:read' } } }, async () => {
    fullRoutes++;
    return { from: 'full' };
  });
  const port = await listen(t, app);
  const auth = { authorization: `Bearer ${await token(['items:read'])}` };
  const get = () => fetch(`http://127.0.0.1:${port}/items`, { headers: auth }).then((res) => res.text());
  t.equal(await get(), '{"from":"full"}', 'the first use of a token: the full route');
  t.equal(await get(), '{"from":"later"}');
  later = () => Promise.resolve(undefined);
  t.equal(await get(), '{"from":"full"}', 'declined later');
  later = () => Promise.reject(new Error('store down'));
  t.equal(await get(), '{"from":"full"}', 'failed later');
  t.equal(fullRoutes, 3);
  t.same(asked, [], 'the next answer was never asked');
  const text = await app.metrics.metrics();
  t.match(text, /http_request_duration_seconds_count\{method="GET",route="\/items",status_code="200"\} 4$/m);
});

t.test('a public fast answer for a route that reads a token is refused, in either order', async (t) => {
  const first = await testApp({ rateLimitEnabled: false });
  first.get('/mine', { config: { auth: { scope: 'items:read', optional: true } } }, async () => ({}));
  t.throws(() => first.addPublicFastAnswer({ route: '/mine', answer: () => '{}' }), /reads a bearer token/);
  const second = await testApp({ rateLimitEnabled: false });
  second.addPublicFastAnswer({ route: '/mine', answer: () => '{}' });
  t.throws(
    () => second.get('/mine', { config: { auth: { scope: 'items:read' } } }, async () => ({})),
    /reads a bearer token/,
  );
  const public_ = await testApp({ rateLimitEnabled: false });
  public_.get('/open', async () => ({}));
  t.doesNotThrow(() => public_.addPublicFastAnswer({ route: '/open', answer: () => '{}' }));
});

t.test('a problem to come is answered at the edge; a client gone meanwhile gets nothing', async (t) => {
  const app = await testApp({ rateLimitEnabled: false });
  let later: () => Promise<string | undefined> = () =>
    Promise.reject(kitErrors.KIT_NOT_FOUND('no such item'));
  app.addFastAnswer({ route: '/items', scope: 'items:read', answer: () => later() });
  let fullRoutes = 0;
  app.get('/items', { config: { auth: { scope: 'items:read' } } }, async () => {
    fullRoutes++;
    throw kitErrors.KIT_NOT_FOUND('no such item');
  });
  const port = await listen(t, app);
  const authorization = `Bearer ${await token(['items:read'])}`;
  const get = () =>
    fetch(`http://127.0.0.1:${port}/items`, { headers: { authorization } }).then(async (res) => ({
      status: res.status,
      type: res.headers.get('content-type'),
      body: await res.text(),
    }));
  const full = await get(); // the token's first use: the full route
  t.equal(fullRoutes, 1);
  const edge = await get();
  t.equal(fullRoutes, 1, 'answered at the edge, the full route not asked');
  t.same(edge, full, 'as the full route answers it');
  t.equal(edge.status, 404);
  // A client that leaves before the answer comes: nothing is sent, nothing counted, no full route.
  let settle: (body: string | undefined) => void = () => {};
  let asked: () => void = () => {};
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  later = () => {
    asked();
    return new Promise((resolve) => (settle = resolve));
  };
  const open = () => new Promise<number>((resolve) => app.server.getConnections((_, n) => resolve(n)));
  const before = await open();
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET /items HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\n\r\n`);
  await askedOnce;
  socket.destroy();
  await pollUntil('the server to see the connection close', async () => (await open()) <= before, {
    ms: 10_000,
    intervalMs: 10,
  });
  settle(undefined);
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(fullRoutes, 1, 'no full route for a client gone');
  const text = await app.metrics.metrics();
  t.match(text, /http_request_duration_seconds_count\{method="GET",route="\/items",status_code="404"\} 2$/m);
  t.notMatch(text, /status_code="200"/);
});
