import t from 'tap';
import { T0 } from '../core/exchange-rules.ts';
import { order, start } from './routes-client.ts';

t.test(
  'trading end to end: deposits, orders, a partial fill across levels, FIFO, cancel, market data',
  async (t) => {
    const { as, anonymous } = await start(t);
    const admin = await as('ops', 'admin');
    const alice = await as('alice', 'trade');
    const bob = await as('bob', 'trade');
    t.match(await admin('POST', '/v1/accounts/alice/deposits', { cash: 1_000_000 }), {
      status: 200,
      body: { account: 'alice', cash: { available: 1_000_000, reserved: 0 } },
    });
    t.equal((await admin('POST', '/v1/accounts/bob/deposits', { shares: { AAPL: 1_000 } })).status, 200);
    const s1 = await bob('POST', '/v1/order', order('sell', 100, 10));
    t.same(s1, {
      status: 200,
      headers: s1.headers,
      body: {
        id: 1,
        creationTime: T0 + 2,
        symbol: 'AAPL',
        side: 'sell',
        price: 100,
        orderType: 'limit',
        quantity: 10,
        filledQuantity: 0,
        remainingQuantity: 10,
        status: 'new',
      },
    });
    t.equal(s1.headers['x-rate-limit-limit'], '1000', 'rate-limit headers');
    await bob('POST', '/v1/order', order('sell', 100, 10));
    await bob('POST', '/v1/order', order('sell', 101, 10));
    // 25 at up to 101: 10 + 10 at 100 (first in, first out), then 5 at 101.
    const buy = await alice('POST', '/v1/order', order('buy', 101, 25));
    t.match(buy.body, { id: 4, status: 'completed', filledQuantity: 25, remainingQuantity: 0 });
    t.match((await bob('GET', '/v1/order/1')).body, { status: 'completed' });
    t.match((await bob('GET', '/v1/order/3')).body, {
      status: 'new',
      filledQuantity: 5,
      remainingQuantity: 5,
    });
    const executions = (await alice('GET', '/execution?symbol=AAPL')).body.executions as Array<
      Record<string, unknown>
    >;
    t.same(
      executions.map((e) => [e.price, e.quantity]),
      [
        [100, 10],
        [100, 10],
        [101, 5],
      ],
    );
    t.same((await bob('GET', '/execution?orderId=3')).body.executions, [
      {
        id: 6,
        orderId: 3,
        symbol: 'AAPL',
        side: 'sell',
        price: 101,
        orderType: 'limit',
        quantity: 5,
        timestamp: T0 + 5,
      },
    ]);
    t.same((await alice('GET', '/execution?orderId=3')).body, { executions: [] }, 'only the caller’s own');
    t.same((await anonymous('GET', '/marketdata/orderBook/L2?symbol=AAPL')).body, {
      bids: [],
      asks: [{ price: 101, quantity: 5 }],
    });
    t.same((await anonymous('GET', '/marketdata/orderBook/L1?symbol=AAPL')).body, {
      bid: null,
      ask: { price: 101, quantity: 5 },
    });
    t.same((await anonymous('GET', '/marketdata/orderBook/L3?symbol=AAPL&depth=1')).body, {
      bids: [],
      asks: [{ price: 101, quantity: 5, orders: [{ id: 3, quantity: 5 }] }],
    });
    t.same(
      (
        await anonymous(
          'GET',
          `/marketdata/candles?symbol=AAPL&resolution=3600&startTime=${T0 - 3_600_000}&endTime=${T0 + 3_600_000}`,
        )
      ).body,
      {
        candles: [
          {
            open: 100,
            close: 101,
            high: 101,
            low: 100,
            volume: 25,
            timestamp: Math.floor(T0 / 3_600_000) * 3_600_000,
          },
        ],
      },
    );
    t.match(await alice('GET', '/v1/accounts/me'), {
      body: {
        cash: { available: 1_000_000 - 2_505, reserved: 0 },
        shares: { AAPL: { available: 25, reserved: 0 } },
      },
    });
    // Cancel: the owner's only, and only while in the book.
    t.match(await alice('DELETE', '/v1/order/3'), { status: 404, body: { code: 'EX_ORDER_NOT_FOUND' } });
    t.match(await bob('DELETE', '/v1/order/3'), {
      status: 200,
      body: { status: 'canceled', remainingQuantity: 5 },
    });
    t.match(await bob('DELETE', '/v1/order/3'), {
      status: 409,
      body: { code: 'EX_CANNOT_CANCEL_ALREADY_MATCHED', result: 'CANNOT_CANCEL_ALREADY_MATCHED' },
    });
    t.match(await bob('GET', '/v1/orders?status=canceled'), {
      body: { data: [{ id: 3 }], next_cursor: null },
    });
    const page = await bob('GET', '/v1/orders?limit=2');
    t.match(page.body, { data: [{ id: 1 }, { id: 2 }], next_cursor: 2 });
    t.match(await bob('GET', '/v1/orders?limit=2&cursor=2'), {
      body: { data: [{ id: 3 }], next_cursor: null },
    });
  },
);

t.test('kill switch and cancel-all', async (t) => {
  const { as } = await start(t);
  const admin = await as('ops', 'admin');
  const alice = await as('alice', 'trade');
  await admin('POST', '/v1/accounts/alice/deposits', { cash: 100_000, shares: { AAPL: 100, MSFT: 100 } });
  await alice('POST', '/v1/order', order('buy', 10, 1));
  await alice('POST', '/v1/order', { ...order('sell', 500, 10), symbol: 'MSFT' });
  await alice('POST', '/v1/order', order('sell', 900, 1));
  t.match(await alice('DELETE', '/v1/orders?symbol=AAPL'), {
    status: 200,
    body: {
      data: [
        { id: 1, status: 'canceled' },
        { id: 3, status: 'canceled' },
      ],
    },
  });
  t.match(await admin('PUT', '/v1/accounts/alice/kill-switch', { on: true }), {
    status: 200,
    body: { killSwitch: true, canceled: [{ id: 2 }] },
  });
  t.match(await alice('POST', '/v1/order', order('buy', 10, 1)), {
    status: 403,
    body: { code: 'EX_KILL_SWITCH' },
  });
  t.match(await alice('GET', '/v1/accounts/me'), {
    body: { killSwitch: true, cash: { available: 100_000, reserved: 0 } },
  });
  t.match(await admin('PUT', '/v1/accounts/alice/kill-switch', { on: false }), {
    status: 200,
    body: { killSwitch: false, canceled: [] },
  });
  t.equal((await alice('POST', '/v1/order', order('buy', 10, 1))).status, 200);
});
