import t from 'tap';
import { mintToken } from '../../src/auth.ts';
import { listen, parseResponses, rawExchange, testApp, token } from './helpers.ts';
import type { Problem } from './helpers.ts';

async function appWithRoutes() {
  const app = await testApp();
  app.post('/scores', { config: { auth: { scope: 'scores:write' } } }, async (request) => ({
    sub: request.principal?.sub,
  }));
  app.get('/public', async (request) => ({ principal: request.principal ?? null }));
  return app;
}

t.test('public routes need no token', async (t) => {
  const app = await appWithRoutes();
  const res = await app.inject({ method: 'GET', url: '/public' });
  t.same(res.json(), { principal: null });
});

t.test('401 without a token, with garbage, expired or a wrong secret', async (t) => {
  const app = await appWithRoutes();
  const expired = await token(['scores:write'], 'alice', -60);
  const wrong = await mintToken({ secret: 'x'.repeat(40), sub: 'alice', scopes: ['scores:write'] });
  const cases: [string, Record<string, string>, RegExp][] = [
    ['none', {}, /missing bearer token/],
    ['basic scheme', { authorization: 'Basic YWxpY2U6eA==' }, /missing bearer token/],
    ['garbage', { authorization: 'Bearer garbage' }, /malformed/],
    ['expired', { authorization: `Bearer ${expired}` }, /expired/],
    ['wrong secret', { authorization: `Bearer ${wrong}` }, /signature/],
  ];
  for (const [name, headers, detail] of cases) {
    const res = await app.inject({ method: 'POST', url: '/scores', headers });
    t.equal(res.statusCode, 401, name);
    t.equal(res.headers['www-authenticate'], 'Bearer', name);
    t.match(res.headers['content-type'], /^application\/problem\+json/, name);
    t.match(
      res.json<Problem>(),
      { status: 401, code: 'KIT_UNAUTHORIZED', title: 'Unauthorized', detail },
      name,
    );
  }
});

t.test('403 names the missing scope', async (t) => {
  const app = await appWithRoutes();
  const res = await app.inject({
    method: 'POST',
    url: '/scores',
    headers: { authorization: `Bearer ${await token(['mail'])}` },
  });
  t.equal(res.statusCode, 403);
  t.match(res.json<Problem>(), {
    status: 403,
    code: 'KIT_FORBIDDEN',
    detail: 'this operation needs the "scores:write" scope',
    required_scope: 'scores:write',
  });
});

t.test('a valid token with the scope sets request.principal', async (t) => {
  const app = await appWithRoutes();
  const res = await app.inject({
    method: 'POST',
    url: '/scores',
    headers: { authorization: `Bearer ${await token(['scores:write'], 'game-server-1')}` },
  });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { sub: 'game-server-1' });
});

t.test('authentication runs before body validation', async (t) => {
  const app = await testApp();
  app.post(
    '/strict',
    {
      config: { auth: { scope: 'trade' } },
      schema: { body: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } } },
    },
    async () => ({ ok: true }),
  );
  const res = await app.inject({ method: 'POST', url: '/strict', payload: { y: 1 } });
  t.equal(res.statusCode, 401);
});

t.test('two Authorization headers are a 400, whichever comes first', async (t) => {
  const app = await appWithRoutes();
  const port = await listen(t, app);
  const good = `Bearer ${await token(['scores:write'])}`;
  for (const [first, second] of [
    [good, 'Bearer forged'],
    ['Bearer forged', good],
    [good, good],
  ]) {
    const res = await rawExchange(
      port,
      [
        `POST /scores HTTP/1.1\r\nHost: x\r\nAuthorization: ${first}\r\nauthorization: ${second}\r\nContent-Length: 0\r\n\r\n`,
      ],
      { answers: 1 },
    );
    const [response] = parseResponses(res.text);
    t.equal(response?.status, 400);
    t.match(response?.headers['content-type'], /^application\/problem\+json/);
    t.match(JSON.parse(response?.body ?? 'null'), {
      code: 'KIT_MALFORMED_REQUEST',
      detail: 'the request has more than one Authorization header',
    });
  }
});

t.test('failed authentications are limited per address, with the rate-limit headers', async (t) => {
  const app = await testApp({ authFailureLimitPerMinute: 3 });
  app.get('/secure', { config: { auth: { scope: 'trade' } } }, async () => ({ ok: true }));
  const bad = { authorization: 'Bearer not-a-token' };
  const before = Math.floor(Date.now() / 1000);
  const remaining: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await app.inject({ method: 'GET', url: '/secure', headers: i === 1 ? {} : bad });
    t.equal(res.statusCode, 401);
    t.equal(res.headers['x-rate-limit-limit'], '3');
    const reset = Number(res.headers['x-rate-limit-reset']);
    t.ok(reset >= before + 59 && reset <= before + 61, `reset ${reset} is a minute from ${before}`);
    remaining.push(String(res.headers['x-rate-limit-remaining']));
  }
  t.same(remaining, ['2', '1', '0']);
  const forbidden = await app.inject({
    method: 'GET',
    url: '/secure',
    headers: { authorization: `Bearer ${await token(['mail'])}` },
  });
  t.equal(forbidden.statusCode, 429, 'the fourth failure is refused');
  t.match(forbidden.json<Problem>(), { code: 'KIT_RATE_LIMITED', status: 429, limit: 3 });
  const retryAfter = Number(forbidden.headers['retry-after']);
  t.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  t.equal(forbidden.headers['x-rate-limit-remaining'], '0');
  const unverified = await app.inject({
    method: 'GET',
    url: '/secure',
    headers: { authorization: `Bearer ${await token(['trade'], 'fresh')}` },
  });
  t.equal(unverified.statusCode, 429, 'an exhausted address gets no signature check');
  const other = await app.inject({ method: 'GET', url: '/secure', headers: bad, remoteAddress: '10.0.0.9' });
  t.equal(other.statusCode, 401, 'another address has its own budget');
});

t.test('a token the address verified before still passes once its budget is spent', async (t) => {
  const app = await testApp({ authFailureLimitPerMinute: 1 });
  app.get('/secure', { config: { auth: { scope: 'trade' } } }, async () => ({ ok: true }));
  const good = { authorization: `Bearer ${await token(['trade'])}` };
  t.equal((await app.inject({ method: 'GET', url: '/secure', headers: good })).statusCode, 200);
  await app.inject({ method: 'GET', url: '/secure' });
  t.equal((await app.inject({ method: 'GET', url: '/secure' })).statusCode, 429);
  t.equal((await app.inject({ method: 'GET', url: '/secure', headers: good })).statusCode, 200);
});

t.test('authFailureLimitPerMinute: 0 turns the limit off', async (t) => {
  const app = await testApp({ authFailureLimitPerMinute: 0 });
  app.get('/secure', { config: { auth: { scope: 'trade' } } }, async () => ({ ok: true }));
  for (let i = 0; i < 5; i++) {
    const res = await app.inject({ method: 'GET', url: '/secure' });
    t.equal(res.statusCode, 401);
    t.notOk(res.headers['x-rate-limit-limit']);
  }
});

t.test('a 403 carries the failed-authentication headers too', async (t) => {
  const app = await testApp({ authFailureLimitPerMinute: 5 });
  app.get('/secure', { config: { auth: { scope: 'trade' } } }, async () => ({ ok: true }));
  const res = await app.inject({
    method: 'GET',
    url: '/secure',
    headers: { authorization: `Bearer ${await token(['mail'])}` },
  });
  t.equal(res.statusCode, 403);
  t.equal(res.headers['x-rate-limit-limit'], '5');
  t.equal(res.headers['x-rate-limit-remaining'], '4');
  t.ok(Number(res.headers['x-rate-limit-reset']) > Date.now() / 1000);
});

t.test(
  'a WebSocket route may take the token from a bearer.<token> subprotocol, never from the URL',
  async (t) => {
    const app = await testApp();
    const handler = async (request: { principal?: { sub: string } }) => ({ sub: request.principal?.sub });
    app.get('/socket', { config: { auth: { scope: 'mail', webSocket: true } } }, handler);
    app.get('/plain', { config: { auth: { scope: 'mail' } } }, handler);
    const good = await token(['mail'], 'alice');
    const upgrade = { upgrade: 'websocket', connection: 'Upgrade' };
    const cases: [string, string, Record<string, string>, number][] = [
      [
        'subprotocol',
        '/socket',
        { ...upgrade, 'sec-websocket-protocol': `tessera.events.v1, bearer.${good}` },
        200,
      ],
      ['a token in the URL', `/socket?access_token=${good}`, upgrade, 401],
      ['subprotocol without an upgrade', '/socket', { 'sec-websocket-protocol': `bearer.${good}` }, 401],
      [
        'subprotocol on a route that did not opt in',
        '/plain',
        { ...upgrade, 'sec-websocket-protocol': `bearer.${good}` },
        401,
      ],
      ['query on a route that did not opt in', `/plain?access_token=${good}`, upgrade, 401],
      ['a bad subprotocol token', '/socket', { ...upgrade, 'sec-websocket-protocol': 'bearer.garbage' }, 401],
    ];
    for (const [name, url, headers, status] of cases) {
      const res = await app.inject({ method: 'GET', url, headers });
      t.equal(res.statusCode, status, name);
      if (status === 200) t.same(res.json(), { sub: 'alice' }, name);
    }
  },
);

t.test('an optional route: anonymous without a token, checked (and counted) with one', async (t) => {
  const app = await testApp({ authFailureLimitPerMinute: 3 });
  app.get(
    '/feed',
    { config: { auth: { scope: 'trade', webSocket: true, optional: true } } },
    async (request) => ({
      sub: request.principal?.sub ?? null,
    }),
  );
  const good = await token(['trade'], 'alice');
  const noScope = await token(['mail'], 'alice');
  const upgrade = { upgrade: 'websocket', connection: 'Upgrade' };
  const cases: [string, Record<string, string>, number, string | null][] = [
    ['nothing presented', {}, 200, null],
    [
      'an upgrade with only our subprotocol',
      { ...upgrade, 'sec-websocket-protocol': 'tessera.v1' },
      200,
      null,
    ],
    ['a good header', { authorization: `Bearer ${good}` }, 200, 'alice'],
    [
      'a good subprotocol',
      { ...upgrade, 'sec-websocket-protocol': `tessera.v1, bearer.${good}` },
      200,
      'alice',
    ],
    ['another scheme', { authorization: 'Basic YWxpY2U6eA==' }, 401, null],
    ['a bad token', { authorization: 'Bearer garbage' }, 401, null],
    ['a token without the scope', { authorization: `Bearer ${noScope}` }, 403, null],
  ];
  for (const [name, headers, status, sub] of cases) {
    const res = await app.inject({ method: 'GET', url: '/feed', headers });
    t.equal(res.statusCode, status, name);
    if (status === 200) t.same(res.json(), { sub }, name);
  }
  // Three failures above used the address's budget: the next bad token is refused before its check.
  const res = await app.inject({ method: 'GET', url: '/feed', headers: { authorization: 'Bearer garbage' } });
  t.equal(res.statusCode, 429, 'failures on an optional route are counted like any other');
  t.equal((await app.inject({ method: 'GET', url: '/feed' })).statusCode, 200, 'anonymous still served');
});
