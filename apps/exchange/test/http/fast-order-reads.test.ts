import t from 'tap';
import { mintToken } from '@tessera/kit';
import { plainOrderId } from '../../src/http/fast-reads.ts';
import { fastEdgeApp } from './exchange-app.ts';
import { byFullRoute, overSocket, type Answer } from './edge-answers.ts';

t.test('a plain order id is taken as it is; anything else in the target is declined', async (t) => {
  t.equal(plainOrderId('/v1/order/1'), 1);
  t.equal(plainOrderId('/v1/order/42'), 42);
  t.equal(plainOrderId(`/v1/order/${Number.MAX_SAFE_INTEGER}`), Number.MAX_SAFE_INTEGER);
  for (const url of [
    '/v1/order/',
    '/v1/order/0',
    '/v1/order/01',
    '/v1/order/-1',
    '/v1/order/+1',
    '/v1/order/1.0',
    '/v1/order/1e3',
    '/v1/order/ 1',
    '/v1/order/1/',
    '/v1/order/1?x=1',
    '/v1/order/1?',
    '/v1/order/1#x',
    '/v1/order/%31',
    `/v1/order/${Number.MAX_SAFE_INTEGER + 1}`,
    '/v1/order/12345678901234567',
    '/v1/orders/1',
    '/v1/order',
    '/V1/order/1',
    '//v1/order/1',
  ]) {
    t.equal(plainOrderId(url), undefined, url);
  }
});

t.test('an order read is answered before fastify, byte for byte as the full route answers it', async (t) => {
  const { app, service, token, port, reachedFastify } = await fastEdgeApp(t);
  await service.deposit('alice', 1_000_000);
  await service.deposit('bob', 1_000_000, { AAPL: 100 });
  const resting = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 100,
    orderType: 'limit',
    quantity: 5,
  });
  await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 100,
    orderType: 'limit',
    quantity: 2,
  });
  const canceled = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 90,
    orderType: 'limit',
    quantity: 3,
  });
  await service.cancelOrder('alice', canceled.id);
  const withClientId = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 80,
    orderType: 'limit',
    quantity: 1,
    clientOrderId: 'c-1',
  });
  const bobs = await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 200,
    orderType: 'limit',
    quantity: 1,
  });

  const ownOrder = service.ownOrder.bind(service);
  let lookups = 0;
  service.ownOrder = (account, id) => {
    lookups++;
    return ownOrder(account, id);
  };
  const alice = `Bearer ${await token('alice', 'trade')}`;
  const get = (path: string, authorization = alice): Promise<Answer> =>
    overSocket(port, path, { authorization });
  /** The names of the headers a socket answer carries, but the date (which changes each second). */
  const headerNames = async (path: string): Promise<string[]> => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: alice } });
    await res.text();
    return [...res.headers.keys()].filter((name) => name !== 'date').sort();
  };
  const routed = (path: string, authorization = alice): Promise<Answer> =>
    byFullRoute(app, path, { authorization });

  await get(`/v1/order/${resting.id}`); // the token's first use verifies it (the full route)
  t.same(reachedFastify, [`GET /v1/order/${resting.id}`], 'an unknown token takes the full route');
  for (const [name, order] of [
    ['partly filled', resting],
    ['canceled', canceled],
    ['with a client order id (not in the answer)', withClientId],
  ] as const) {
    reachedFastify.length = 0;
    const path = `/v1/order/${order.id}`;
    const fast = await get(path);
    t.same(reachedFastify, [], `${name}: answered before fastify`);
    t.same(fast, await routed(path), `${name}: the full route's status, headers and bytes`);
    t.same(fast, await get(`${path}?full`), `${name}: as over the socket with a query`);
    t.same(await headerNames(path), await headerNames(`${path}?full`), `${name}: the same headers`);
    t.equal(fast.status, 200);
    t.equal(fast.type, 'application/json; charset=utf-8');
  }
  t.match(JSON.parse((await get(`/v1/order/${resting.id}`)).body), {
    id: resting.id,
    filledQuantity: 2,
    remainingQuantity: 3,
    status: 'new',
  });
  t.equal(JSON.parse((await get(`/v1/order/${canceled.id}`)).body).status, 'canceled');
  t.notOk('clientOrderId' in JSON.parse((await get(`/v1/order/${withClientId.id}`)).body));

  // A change is seen at once: nothing is cached at the edge.
  await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 100,
    orderType: 'limit',
    quantity: 3,
  });
  reachedFastify.length = 0;
  const filled = await get(`/v1/order/${resting.id}`);
  t.same(reachedFastify, []);
  t.match(JSON.parse(filled.body), { filledQuantity: 5, remainingQuantity: 0, status: 'completed' });
  t.same(filled, await routed(`/v1/order/${resting.id}`));

  const elsewhere = await mintToken({
    secret: 'another-secret-that-is-long-enough-0123456789',
    sub: 'alice',
    scopes: ['trade'],
  });
  const admin = `Bearer ${await token('alice', 'admin')}`;
  await get(`/v1/order/${resting.id}`, admin); // verified once, so that only the scope declines it
  // Each case: its status, whether the fast answer looked the order up, and whether the request
  // reached our onRequest hook (a refused token is answered by the kit's auth hook, before it).
  const declined: Array<[string, string, string, number, 'looked up' | 'not looked up', 'hook' | 'auth']> = [
    ['an unknown order', `/v1/order/${bobs.id + 1000}`, alice, 404, 'looked up', 'hook'],
    ["another account's order", `/v1/order/${bobs.id}`, alice, 404, 'looked up', 'hook'],
    ['a query', `/v1/order/${resting.id}?x=1`, alice, 200, 'not looked up', 'hook'],
    ['an empty query', `/v1/order/${resting.id}?`, alice, 200, 'not looked up', 'hook'],
    ['a leading zero', `/v1/order/0${resting.id}`, alice, 200, 'not looked up', 'hook'],
    ['an id of 0', '/v1/order/0', alice, 400, 'not looked up', 'hook'],
    ['an id out of range', `/v1/order/${Number.MAX_SAFE_INTEGER + 1}`, alice, 400, 'not looked up', 'hook'],
    ['not an id', '/v1/order/abc', alice, 400, 'not looked up', 'hook'],
    [
      'a token signed with another secret',
      `/v1/order/${resting.id}`,
      `Bearer ${elsewhere}`,
      401,
      'not looked up',
      'auth',
    ],
    ['a malformed token', `/v1/order/${resting.id}`, 'Bearer not-a-token', 401, 'not looked up', 'auth'],
    ['no bearer token', `/v1/order/${resting.id}`, 'Basic YWxpY2U6eA==', 401, 'not looked up', 'auth'],
    ['a token without the trade scope', `/v1/order/${resting.id}`, admin, 403, 'not looked up', 'auth'],
  ];
  for (const [name, path, authorization, status, looked, answeredBy] of declined) {
    reachedFastify.length = 0;
    lookups = 0;
    const answer = await get(path, authorization);
    t.equal(lookups, looked === 'looked up' ? 1 : 0, `${name}: ${looked} at the edge`);
    t.same(reachedFastify, answeredBy === 'hook' ? [`GET ${path}`] : [], `${name}: fastify answers`);
    t.equal(answer.status, status, `${name}: ${answer.body}`);
    if (status === 404) t.match(JSON.parse(answer.body), { code: 'EX_ORDER_NOT_FOUND' });
    if (answeredBy === 'auth') t.match(JSON.parse(answer.body), { code: /^KIT_(UNAUTHORIZED|FORBIDDEN)$/ });
    t.same(answer, await routed(path, authorization), `${name}: as the full route`);
  }
  reachedFastify.length = 0;
  const bob = `Bearer ${await token('bob', 'trade')}`;
  await get(`/v1/order/${bobs.id}`, bob);
  await get(`/v1/order/${bobs.id}`, bob);
  t.same(
    reachedFastify,
    [`GET /v1/order/${bobs.id}`],
    'the owner reads it at the edge once its token is known',
  );
});
