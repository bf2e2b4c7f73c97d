import t from 'tap';
import { mintToken } from '../../src/auth.ts';
import { testApp, token } from './helpers.ts';
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
