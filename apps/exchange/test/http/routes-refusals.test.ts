import t from 'tap';
import { order, start } from './routes-client.ts';

t.test('refusals name the check', async (t) => {
  const { as } = await start(t);
  const admin = await as('ops', 'admin');
  const alice = await as('alice', 'trade');
  await admin('POST', '/v1/accounts/alice/deposits', { cash: 1_000 });
  t.match(await alice('POST', '/v1/order', order('buy', 100, 11)), {
    status: 422,
    body: { code: 'EX_INSUFFICIENT_FUNDS', title: 'Insufficient funds', number: 4001 },
  });
  t.match(await alice('POST', '/v1/order', order('sell', 100, 1)), {
    status: 422,
    body: { code: 'EX_INSUFFICIENT_SHARES' },
  });
  t.match(await alice('POST', '/v1/order', order('buy', 100, 1, { orderType: 'market' })), {
    status: 400,
    body: { code: 'EX_ORDER_TYPE_UNSUPPORTED', detail: /only limit orders/ },
  });
  t.match(await alice('POST', '/v1/order', order('buy', 100, 1, { symbol: 'TSLA' })), {
    status: 400,
    body: { code: 'EX_UNKNOWN_SYMBOL' },
  });
  t.match(await alice('POST', '/v1/order', order('buy', 1_001, 1)), {
    status: 400,
    body: { code: 'EX_INVALID_PRICE' },
  });
  t.match(await alice('POST', '/v1/order', order('buy', 10, 10_001)), {
    status: 422,
    body: { code: 'EX_RISK_MAX_ORDER_SIZE' },
  });
  t.match(await alice('POST', '/v1/order', { ...order('buy', 10, 1), symbol: 'MSFT', price: 12 }), {
    status: 400,
    body: { code: 'EX_INVALID_PRICE' },
  });
  // Bad input of every field: the schema answers before any handler.
  for (const bad of [
    { ...order('buy', 10, 1), symbol: 'aapl' },
    { ...order('hold', 10, 1) },
    { ...order('buy', 0, 1) },
    { ...order('buy', 10.5, 1) },
    { ...order('buy', 10, 1), price: '10' },
    { ...order('buy', 10, 0) },
    { ...order('buy', 10, 1), orderType: 'stop' },
    { ...order('buy', 10, 1), extra: true },
    { symbol: 'AAPL', side: 'buy', price: 10, quantity: 1 },
  ]) {
    t.match(
      await alice('POST', '/v1/order', bad),
      { status: 400, body: { code: 'KIT_VALIDATION' } },
      JSON.stringify(bad),
    );
  }
  t.match(await alice('GET', '/v1/order/0'), { status: 400 });
  t.match(await alice('GET', '/v1/order/99'), { status: 404, body: { code: 'EX_ORDER_NOT_FOUND' } });
  t.match(await admin('POST', '/v1/accounts/alice/deposits', {}), {
    status: 400,
    body: { code: 'EX_INVALID_DEPOSIT' },
  });
  t.match(await admin('POST', '/v1/accounts/alice/deposits', { shares: { TSLA: 1 } }), {
    status: 400,
    body: { code: 'EX_UNKNOWN_SYMBOL' },
  });
  t.match(await admin('POST', '/v1/accounts/alice/deposits', { cash: -1 }), {
    status: 400,
    body: { code: 'KIT_VALIDATION' },
  });
});

t.test(
  'scopes: trade for trading, admin for deposits and the kill switch; the account is the token’s subject',
  async (t) => {
    const { as, anonymous } = await start(t);
    const admin = await as('ops', 'admin');
    const alice = await as('alice', 'trade');
    t.match(await anonymous('POST', '/v1/order', order('buy', 10, 1)), {
      status: 401,
      body: { code: 'KIT_UNAUTHORIZED' },
    });
    t.match(await admin('POST', '/v1/order', order('buy', 10, 1)), {
      status: 403,
      body: { code: 'KIT_FORBIDDEN' },
    });
    t.match(await alice('POST', '/v1/accounts/alice/deposits', { cash: 10 }), { status: 403 });
    t.match(await alice('PUT', '/v1/accounts/alice/kill-switch', { on: false }), { status: 403 });
    t.equal(
      (await anonymous('GET', '/marketdata/orderBook/L2?symbol=AAPL')).status,
      200,
      'market data is public',
    );
    t.match(await anonymous('GET', '/marketdata/orderBook/L2?symbol=TSLA'), {
      status: 400,
      body: { code: 'EX_UNKNOWN_SYMBOL' },
    });
  },
);

t.test(
  'order routes are rate limited per account and route: headers, then a 429 problem with Retry-After',
  async (t) => {
    const { as } = await start(t, 3);
    const alice = await as('alice', 'trade');
    const bob = await as('bob', 'trade');
    const first = await alice('POST', '/v1/order', order('buy', 100, 1));
    t.equal(first.headers['x-rate-limit-limit'], '3');
    t.equal(first.headers['x-rate-limit-remaining'], '2');
    t.ok(Number(first.headers['x-rate-limit-reset']) > Date.now() / 1000, 'reset is a UNIX time ahead');
    // Each route has its own budget per account (the limiter's in-memory store counts per route).
    await alice('POST', '/v1/order', order('buy', 100, 1));
    await alice('POST', '/v1/order', order('buy', 100, 1));
    t.not((await alice('GET', '/v1/orders')).status, 429, 'another route has its own budget');
    const limited = await alice('POST', '/v1/order', order('buy', 100, 1));
    t.equal(limited.status, 429);
    t.match(limited.body, { status: 429, code: 'KIT_RATE_LIMITED', detail: /3 requests/ });
    t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After in seconds');
    t.equal(limited.headers['x-rate-limit-remaining'], '0');
    const other = await bob('POST', '/v1/order', order('buy', 100, 1));
    t.not(other.status, 429, "another account's budget is its own");
    t.equal(other.headers['x-rate-limit-remaining'], '2');
  },
);
