import t from 'tap';
import { closeObjectSchemas } from '../../src/http/validation.ts';
import { testApp, token } from './helpers.ts';
import type { Problem } from './helpers.ts';

async function scoresApp() {
  const app = await testApp();
  app.post(
    '/scores',
    {
      schema: {
        body: {
          type: 'object',
          required: ['user_id', 'points'],
          additionalProperties: false,
          properties: {
            user_id: { type: 'string', format: 'uuid' },
            points: { type: 'integer', minimum: 0, maximum: 10000 },
          },
        },
      },
    },
    async (request) => ({ received: request.body }),
  );
  app.get(
    '/scores',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
        },
      },
    },
    async (request) => ({ query: request.query }),
  );
  return app;
}

const uuid = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

t.test('a valid body passes untouched', async (t) => {
  const app = await scoresApp();
  const res = await app.inject({ method: 'POST', url: '/scores', payload: { user_id: uuid, points: 5 } });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { received: { user_id: uuid, points: 5 } });
});

t.test('an out-of-range value names the field', async (t) => {
  const app = await scoresApp();
  const res = await app.inject({ method: 'POST', url: '/scores', payload: { user_id: uuid, points: 10001 } });
  t.equal(res.statusCode, 400);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  t.same(res.json(), {
    errors: [{ field: 'body/points', message: 'must be <= 10000' }],
    title: 'Bad request',
    detail: 'body/points must be <= 10000',
    status: 400,
    code: 'KIT_VALIDATION',
  });
});

t.test('an unknown field is rejected, not stripped', async (t) => {
  const app = await scoresApp();
  const res = await app.inject({
    method: 'POST',
    url: '/scores',
    payload: { user_id: uuid, points: 5, foo: 1 },
  });
  t.equal(res.statusCode, 400);
  t.match(res.json<Problem>(), { detail: 'unknown field "foo" in body', errors: [{ field: 'body/foo' }] });
});

t.test('a missing field is named', async (t) => {
  const app = await scoresApp();
  const res = await app.inject({ method: 'POST', url: '/scores', payload: { points: 5 } });
  t.equal(res.statusCode, 400);
  t.match(res.json<Problem>(), {
    detail: 'body/user_id is required',
    errors: [{ field: 'body/user_id', message: 'is required' }],
  });
});

t.test('all problems are reported together; formats are checked', async (t) => {
  const app = await scoresApp();
  const res = await app.inject({ method: 'POST', url: '/scores', payload: { user_id: 'x', points: -1 } });
  t.equal(res.statusCode, 400);
  const { detail } = res.json<Problem>();
  t.match(detail, /body\/user_id must match format "uuid"/);
  t.match(detail, /body\/points must be >= 0/);
});

t.test('body values are not coerced', async (t) => {
  const app = await scoresApp();
  const res = await app.inject({ method: 'POST', url: '/scores', payload: { user_id: uuid, points: '5' } });
  t.equal(res.statusCode, 400);
  t.match(res.json<Problem>(), { detail: 'body/points must be integer' });
});

t.test('querystring values are coerced and defaulted', async (t) => {
  const app = await scoresApp();
  const five = await app.inject({ method: 'GET', url: '/scores?limit=5' });
  t.same(five.json(), { query: { limit: 5 } });
  const fallback = await app.inject({ method: 'GET', url: '/scores' });
  t.same(fallback.json(), { query: { limit: 10 } });
  const bad = await app.inject({ method: 'GET', url: '/scores?limit=abc' });
  t.equal(bad.statusCode, 400);
  t.match(bad.json<Problem>(), { detail: 'querystring/limit must be integer' });
});

t.test('params are coerced', async (t) => {
  const app = await testApp();
  app.get(
    '/items/:id',
    { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } },
    async (request) => ({ params: request.params }),
  );
  t.same((await app.inject({ method: 'GET', url: '/items/42' })).json(), { params: { id: 42 } });
  t.equal((await app.inject({ method: 'GET', url: '/items/x' })).statusCode, 400);
});

t.test('body objects without additionalProperties are closed, nested ones too', async (t) => {
  const app = await testApp();
  app.post(
    '/players',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            address: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      },
    },
    async () => ({ ok: true }),
  );
  const nested = await app.inject({ method: 'POST', url: '/players', payload: { address: { town: 'x' } } });
  t.equal(nested.statusCode, 400);
  t.match(nested.json<Problem>(), { detail: 'unknown field "town" in body/address' });
  const ok = await app.inject({
    method: 'POST',
    url: '/players',
    payload: { name: 'a', address: { city: 'b' } },
  });
  t.equal(ok.statusCode, 200);
});

t.test('closeObjectSchemas leaves open and combined schemas alone', async (t) => {
  t.same(closeObjectSchemas({ type: 'object', properties: {}, additionalProperties: true }), {
    type: 'object',
    properties: {},
    additionalProperties: true,
  });
  t.same(closeObjectSchemas({ properties: { a: {} }, allOf: [] }), { properties: { a: {} }, allOf: [] });
  t.same(closeObjectSchemas({ type: 'array', items: { properties: {} } }), {
    type: 'array',
    items: { properties: {}, additionalProperties: false },
  });
});

t.test('shared schemas added with app.addSchema resolve through $ref', async (t) => {
  const app = await testApp();
  app.addSchema({ $id: 'money', type: 'integer', minimum: 0 });
  app.post(
    '/pay',
    { schema: { body: { type: 'object', properties: { amount: { $ref: 'money#' } } } } },
    async () => ({ ok: true }),
  );
  t.equal((await app.inject({ method: 'POST', url: '/pay', payload: { amount: 3 } })).statusCode, 200);
  const bad = await app.inject({ method: 'POST', url: '/pay', payload: { amount: -3 } });
  t.match(bad.json<Problem>(), { status: 400, detail: 'body/amount must be >= 0' });
});

t.test('query integers are parsed strictly: only plain decimal text is a number', async (t) => {
  const app = await testApp();
  app.get(
    '/page',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: -10, maximum: 100 },
            ratio: { type: 'number' },
            exact: { type: 'boolean' },
            ids: { type: 'array', items: { type: 'integer' } },
          },
        },
      },
    },
    async (request) => ({ query: request.query }),
  );
  for (const good of ['5', '-5', '0', '100']) {
    const res = await app.inject({ method: 'GET', url: `/page?limit=${encodeURIComponent(good)}` });
    t.same(res.json(), { query: { limit: Number(good) } }, `limit=${good}`);
  }
  for (const bad of ['0x10', '+5', ' 5', '5 ', '1e1', '5.0', '', '0b1', 'Infinity', '٥']) {
    const res = await app.inject({ method: 'GET', url: `/page?limit=${encodeURIComponent(bad)}` });
    t.equal(res.statusCode, 400, `limit=${JSON.stringify(bad)}`);
    t.match(res.json<Problem>(), { code: 'KIT_VALIDATION', detail: 'querystring/limit must be integer' });
  }
  t.same((await app.inject({ method: 'GET', url: '/page?ratio=2.5&exact=true' })).json(), {
    query: { ratio: 2.5, exact: true },
  });
  t.equal((await app.inject({ method: 'GET', url: '/page?ratio=0x1' })).statusCode, 400);
  t.equal((await app.inject({ method: 'GET', url: '/page?exact=1' })).statusCode, 400);
  t.same((await app.inject({ method: 'GET', url: '/page?ids=1' })).json(), { query: { ids: [1] } });
  t.same((await app.inject({ method: 'GET', url: '/page?ids=1&ids=-2' })).json(), {
    query: { ids: [1, -2] },
  });
  t.equal((await app.inject({ method: 'GET', url: '/page?ids=1&ids=0x2' })).statusCode, 400);
});

t.test(
  'a path parameter longer than the router limit reaches the schema (after authentication)',
  async (t) => {
    const app = await testApp();
    app.get(
      '/users/:user_id',
      {
        config: { auth: { scope: 'scores:read' } },
        schema: {
          params: {
            type: 'object',
            properties: { user_id: { type: 'string', pattern: '^[a-z0-9]{1,64}$' } },
          },
        },
      },
      async (request) => ({ params: request.params }),
    );
    const long = 'a'.repeat(300);
    const anonymous = await app.inject({ method: 'GET', url: `/users/${long}` });
    t.equal(anonymous.statusCode, 401, 'authentication is checked first');
    const res = await app.inject({
      method: 'GET',
      url: `/users/${long}`,
      headers: { authorization: `Bearer ${await token(['scores:read'])}` },
    });
    t.equal(res.statusCode, 400);
    t.match(res.json<Problem>(), { code: 'KIT_VALIDATION', errors: [{ field: 'params/user_id' }] });
  },
);
