import t from 'tap';
import { plainBookRead } from '../../src/http/fast-reads.ts';
import { fastEdgeApp } from './exchange-app.ts';
import { byFullRoute, overSocket, type Answer } from './edge-answers.ts';

t.test('a plain book query is taken as it is; anything else in the target is declined', async (t) => {
  const L2 = '/marketdata/orderBook/L2';
  t.same(plainBookRead(`${L2}?symbol=AAPL`, L2), { symbol: 'AAPL', depth: 10 });
  t.same(plainBookRead(`${L2}?symbol=BRK.B&depth=3`, L2), { symbol: 'BRK.B', depth: 3 });
  t.same(plainBookRead(`${L2}?symbol=A&depth=1000`, L2), { symbol: 'A', depth: 1000 });
  for (const url of [
    L2,
    `${L2}?`,
    `${L2}?symbol=`,
    `${L2}?symbol=aapl`,
    `${L2}?symbol=1AAPL`,
    `${L2}?symbol=ABCDEFGHIJKLM`,
    `${L2}?symbol=AAPL&depth=0`,
    `${L2}?symbol=AAPL&depth=01`,
    `${L2}?symbol=AAPL&depth=1001`,
    `${L2}?symbol=AAPL&depth=-1`,
    `${L2}?symbol=AAPL&depth=`,
    `${L2}?symbol=AAPL&depth=2&depth=3`,
    `${L2}?depth=2&symbol=AAPL`,
    `${L2}?symbol=AAPL&x=1`,
    `${L2}?symbol=%41APL`,
    `${L2}/?symbol=AAPL`,
    `/marketdata/orderBook/L3?symbol=AAPL`,
  ]) {
    t.equal(plainBookRead(url, L2), undefined, url);
  }
});

t.test('the public book reads are answered before fastify, byte for byte as the full route', async (t) => {
  const { app, service, port, reachedFastify } = await fastEdgeApp(t);
  await service.deposit('alice', 10_000_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  for (const [price, quantity] of [
    [100, 5],
    [100, 2],
    [99, 7],
    [97, 1],
  ] as const) {
    await service.placeOrder('alice', { symbol: 'AAPL', side: 'buy', price, orderType: 'limit', quantity });
  }
  await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 105,
    orderType: 'limit',
    quantity: 4,
  });
  const get = (path: string, headers: Record<string, string> = {}): Promise<Answer> =>
    overSocket(port, path, headers);
  const routed = (path: string): Promise<Answer> => byFullRoute(app, path, {});
  for (const path of [
    '/marketdata/orderBook/L2?symbol=AAPL',
    '/marketdata/orderBook/L2?symbol=AAPL&depth=2',
    '/marketdata/orderBook/L3?symbol=AAPL',
    '/marketdata/orderBook/L3?symbol=AAPL&depth=1',
    '/marketdata/orderBook/L2?symbol=MSFT',
  ]) {
    reachedFastify.length = 0;
    const fast = await get(path);
    t.same(reachedFastify, [], `${path}: answered before fastify`);
    t.equal(fast.status, 200, path);
    t.same(fast, await routed(path), `${path}: the full route's status, headers and bytes`);
    reachedFastify.length = 0;
    t.same(await get(path, { authorization: 'Bearer not-a-token' }), fast, `${path}: a token is ignored`);
    t.same(reachedFastify, [], `${path}: with a token, still at the edge`);
  }
  t.same(JSON.parse((await get('/marketdata/orderBook/L3?symbol=AAPL&depth=1')).body), {
    bids: [
      {
        price: 100,
        quantity: 7,
        orders: [
          { id: 1, quantity: 5 },
          { id: 2, quantity: 2 },
        ],
      },
    ],
    asks: [{ price: 105, quantity: 4, orders: [{ id: 5, quantity: 4 }] }],
  });
  for (const [path, status] of [
    ['/marketdata/orderBook/L2?symbol=NOPE', 400],
    ['/marketdata/orderBook/L2?symbol=AAPL&depth=0', 400],
    ['/marketdata/orderBook/L2?depth=2&symbol=AAPL', 200],
    ['/marketdata/orderBook/L2?symbol=AAPL&depth=2&x=1', 400],
  ] as const) {
    reachedFastify.length = 0;
    const answer = await get(path);
    t.same(reachedFastify, [`GET ${path}`], `${path}: the full route`);
    t.equal(answer.status, status, `${path}: ${answer.body}`);
  }
});
