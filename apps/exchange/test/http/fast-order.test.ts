import t from 'tap';
import { orderJson, plainOrder } from '../../src/http/fast-order.ts';
import { fastEdgeApp } from './exchange-app.ts';

const order = (extra: Record<string, unknown> = {}) => ({
  symbol: 'AAPL',
  side: 'buy',
  price: 100,
  orderType: 'limit',
  quantity: 5,
  ...extra,
});

t.test(
  'a plain order is taken as it is; anything the schema would refuse or strip is declined',
  async (t) => {
    t.same(plainOrder(order()), order());
    t.same(plainOrder(order({ side: 'sell', symbol: 'BRK.A' })), order({ side: 'sell', symbol: 'BRK.A' }));
    const declined: unknown[] = [
      null,
      [],
      'order',
      order({ orderType: 'market' }),
      order({ clientOrderId: 'c1' }),
      order({ price: 0 }),
      order({ price: 1.5 }),
      order({ price: '100' }),
      order({ quantity: 0 }),
      order({ quantity: Number.MAX_SAFE_INTEGER + 1 }),
      order({ side: 'BUY' }),
      order({ symbol: 'aapl' }),
      order({ symbol: 'TOOLONGSYMBOL1' }),
      { symbol: 'AAPL', side: 'buy', price: 100, orderType: 'limit' },
      JSON.parse('{"symbol":"AAPL","side":"buy","price":1,"orderType":"limit","quantity":1,"__proto__":{}}'),
    ];
    for (const body of declined) t.equal(plainOrder(body), undefined, JSON.stringify(body));
  },
);

t.test('a plain order is answered before fastify, as the full route answers it', async (t) => {
  const { service, token, port, reachedFastify } = await fastEdgeApp(t);
  await service.deposit('alice', 10_000);
  const headers = {
    authorization: `Bearer ${await token('alice', 'trade')}`,
    'content-type': 'application/json',
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  };
  // Both ways in (the route's placeOrder and the edge) submit through submitOrder.
  const submitOrder = service.submitOrder.bind(service);
  let placed = 0;
  service.submitOrder = (account, input) => {
    placed++;
    return submitOrder(account, input);
  };
  await call('POST', '/v1/order?full', order()); // the token's first use verifies it
  reachedFastify.length = 0;
  const fast = await call('POST', '/v1/order', order());
  t.same(reachedFastify, [], 'answered before fastify');
  // Another spelling than the bytes reader's (whitespace): JSON.parse's object, still at the edge.
  const spaced = await call('POST', '/v1/order', JSON.stringify(order({ price: 98 }), null, 1));
  t.same(reachedFastify, [], 'another spelling is answered before fastify too');
  t.match(JSON.parse(spaced.body), { price: 98, status: 'new' });
  await call('POST', '/v1/order?full', order({ price: 99 }));
  t.same(reachedFastify, ['POST /v1/order?full'], 'while a query takes the route (the hook sees it)');
  const id = (JSON.parse(fast.body) as { id: number }).id;
  t.same(fast, await call('GET', `/v1/order/${id}`), 'the same body as the route writes for that order');
  t.equal(fast.type, 'application/json; charset=utf-8');
  const refusals = [order({ quantity: 1_000 }), order({ symbol: 'ZZZZ' })];
  for (const refused of refusals) {
    reachedFastify.length = 0;
    const viaFast = await call('POST', '/v1/order', refused);
    t.same(reachedFastify, [], 'a refusal of a plain order is answered at the edge too');
    t.same(viaFast, await call('POST', '/v1/order?full', refused), `refused alike: ${viaFast.body}`);
    t.equal(viaFast.type, 'application/problem+json; charset=utf-8');
  }
  for (const bad of [order({ orderType: 'market' }), order({ price: '1' }), '{"symbol":', order({ x: 1 })]) {
    t.same(
      await call('POST', '/v1/order', bad),
      await call('POST', '/v1/order?full', bad),
      `declined: ${JSON.stringify(bad)}`,
    );
  }
  t.equal(
    placed,
    4 + 2 * refusals.length + 2,
    'each order placed once per request (the market order reaches the service)',
  );
});

t.test('orderJson writes the response schema’s fields in its order, and only those', async (t) => {
  const view = {
    clientOrderId: 'c9',
    status: 'new',
    remainingQuantity: 5,
    filledQuantity: 0,
    quantity: 5,
    orderType: 'limit',
    price: 100,
    side: 'buy',
    symbol: 'AAPL',
    creationTime: 7,
    id: 3,
  } as const;
  t.equal(
    orderJson(view),
    '{"id":3,"creationTime":7,"symbol":"AAPL","side":"buy","price":100,"orderType":"limit","quantity":5,"filledQuantity":0,"remainingQuantity":5,"status":"new"}',
  );
});

t.test('orderJson writes any symbol as JSON.stringify does', async (t) => {
  const base = { id: 1, creationTime: 2, side: 'sell', price: 3, orderType: 'limit' } as const;
  const counts = { quantity: 4, filledQuantity: 0, remainingQuantity: 4, status: 'new' } as const;
  for (const symbol of ['AAPL', 'BRK.A', 'A"B', 'A\\B', 'A\nB', 'A\u007fB', 'Äpfel', 'A\ud800B', '']) {
    const text = orderJson({ ...base, symbol, ...counts });
    t.ok(text.includes(`"symbol":${JSON.stringify(symbol)},`), text);
    t.equal((JSON.parse(text) as { symbol: string }).symbol, JSON.parse(JSON.stringify(symbol)));
  }
});
