import t from 'tap';
import { stateDigest } from '../../src/core/state-snapshot.ts';
import { parseHours } from '../../src/core/trading-hours.ts';
import { Desk, rules, T0 } from './exchange-rules.ts';

t.test('a buy reserves price × quantity; a fill pays the trade price and releases the rest', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  const sell = desk.order('bob', { side: 'sell', price: 90, quantity: 30 }) as number;
  t.same(desk.shares('bob'), { available: 70, reserved: 30 });
  const buy = desk.order('alice', { side: 'buy', price: 100, quantity: 50 }) as number;
  // 30 filled at 90 (the resting price): 2,700 paid, 300 of reserve released; 20 still reserve 2,000.
  t.same(desk.cash('alice'), { available: 10_000 - 2_700 - 2_000, reserved: 2_000 });
  t.same(desk.shares('alice'), { available: 30, reserved: 0 });
  t.same(desk.cash('bob'), { available: 2_700, reserved: 0 });
  t.same(desk.shares('bob'), { available: 70, reserved: 0 });
  t.match(desk.get(sell), { status: 'completed', filledQuantity: 30, remainingQuantity: 0 });
  t.match(desk.get(buy), { status: 'new', filledQuantity: 30, remainingQuantity: 20 });
  // Cancel releases what the remaining 20 reserve.
  t.equal(desk.cancel('alice', buy), undefined);
  t.same(desk.cash('alice'), { available: 7_300, reserved: 0 });
  t.match(desk.get(buy), { status: 'canceled', filledQuantity: 30, remainingQuantity: 20 });
});

t.test('executions come in pairs, buyer first, with the order type and the trade price', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  desk.order('alice', { side: 'buy', price: 100, quantity: 10 });
  const applied = desk.apply({
    v: 1,
    type: 'order.new',
    at: T0,
    account: 'bob',
    orderId: 2,
    symbol: 'AAPL',
    side: 'sell',
    price: 95,
    quantity: 4,
    orderType: 'limit',
  } as never);
  const executions = applied.events
    .filter((e) => e.type === 'execution')
    .map((e) => (e.type === 'execution' ? e.execution : undefined));
  t.match(executions, [
    {
      id: 1,
      orderId: 1,
      account: 'alice',
      side: 'buy',
      price: 100,
      quantity: 4,
      counterOrderId: 2,
      orderType: 'limit',
      seq: 4,
    },
    { id: 2, orderId: 2, account: 'bob', side: 'sell', price: 100, quantity: 4, counterOrderId: 1 },
  ]);
  t.same(
    applied.events.map((e) => e.type),
    ['order.accepted', 'execution', 'execution', 'book.level', 'order.completed'],
  );
});

t.test('the wallet refuses what it cannot cover; no short selling', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 999);
  t.equal(desk.order('alice', { side: 'buy', price: 100, quantity: 10 }), 'EX_INSUFFICIENT_FUNDS');
  t.equal(desk.order('alice', { side: 'buy', price: 99, quantity: 10 }), 2 - 1);
  t.equal(desk.order('alice', { side: 'buy', price: 1, quantity: 10 }), 'EX_INSUFFICIENT_FUNDS');
  t.equal(desk.order('alice', { side: 'sell', price: 1, quantity: 1 }), 'EX_INSUFFICIENT_SHARES');
  t.equal(desk.order('nobody', { side: 'buy', price: 1, quantity: 1 }), 'EX_INSUFFICIENT_FUNDS');
});

t.test('gateway checks name the field', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 1_000_000, { MSFT: 1_000 });
  t.equal(desk.order('alice', { symbol: 'TSLA', side: 'buy', price: 10, quantity: 1 }), 'EX_UNKNOWN_SYMBOL');
  t.equal(desk.order('alice', { symbol: 'MSFT', side: 'buy', price: 12, quantity: 10 }), 'EX_INVALID_PRICE');
  t.equal(
    desk.order('alice', { symbol: 'MSFT', side: 'buy', price: 1_005, quantity: 10 }),
    'EX_INVALID_PRICE',
  );
  t.equal(
    desk.order('alice', { symbol: 'MSFT', side: 'buy', price: 10, quantity: 15 }),
    'EX_INVALID_QUANTITY',
  );
  t.equal(
    desk.order('alice', { symbol: 'MSFT', side: 'buy', price: 10, quantity: 0 }),
    'EX_INVALID_QUANTITY',
  );
  t.equal(
    desk.order('alice', { symbol: 'MSFT', side: 'buy', price: 10.5, quantity: 10 }),
    'EX_INVALID_PRICE',
  );
  t.equal(
    desk.manager.checkNewOrder(
      'alice',
      { symbol: 'AAPL', side: 'buy', price: 10, quantity: 1, orderType: 'market' },
      T0,
    )?.code,
    'EX_ORDER_TYPE_UNSUPPORTED',
  );
  t.equal(desk.order('alice', { symbol: 'MSFT', side: 'buy', price: 10, quantity: 10 }), 1);
});

t.test('risk: max order size, max notional, the daily cap counting filled and open shares', async (t) => {
  const desk = new Desk(rules({ limits: { dailyCap: 100, maxQuantity: 70, maxNotional: 5_000 } }));
  desk.deposit('alice', 1_000_000);
  desk.deposit('bob', 0, { AAPL: 1_000 });
  t.equal(desk.order('alice', { side: 'buy', price: 1, quantity: 71 }), 'EX_RISK_MAX_ORDER_SIZE');
  t.equal(desk.order('alice', { side: 'buy', price: 100, quantity: 51 }), 'EX_RISK_MAX_NOTIONAL');
  t.type(desk.order('alice', { side: 'buy', price: 10, quantity: 60 }), 'number');
  t.equal(desk.order('alice', { side: 'buy', price: 10, quantity: 41 }), 'EX_RISK_DAILY_CAP');
  // A fill moves shares from open to filled: still counted.
  desk.order('bob', { side: 'sell', price: 10, quantity: 60 });
  t.equal(desk.order('alice', { side: 'buy', price: 10, quantity: 41 }), 'EX_RISK_DAILY_CAP');
  const id = desk.order('alice', { side: 'buy', price: 10, quantity: 40 }) as number;
  // A cancel gives open shares back.
  desk.cancel('alice', id);
  t.type(desk.order('alice', { side: 'buy', price: 10, quantity: 40 }), 'number');
  // The cap is per symbol (MSFT is separate) and per trading day: tomorrow's fills start from 0.
  desk.at = T0 + 86_400_000;
  t.equal(
    desk.order('alice', { side: 'buy', price: 10, quantity: 61 }),
    'EX_RISK_DAILY_CAP',
    'the open 40 still count',
  );
  t.type(desk.order('alice', { side: 'buy', price: 10, quantity: 60 }), 'number');
});

t.test('the session: closed outside hours and on holidays', async (t) => {
  const desk = new Desk(
    rules({ hours: parseHours('09:30-16:00 America/New_York mon-fri'), holidays: ['2026-11-26'] }),
  );
  desk.deposit('alice', 1_000);
  desk.at = Date.parse('2026-11-23T14:29:00Z'); // 09:29 New York
  t.equal(desk.order('alice', { side: 'buy', price: 1, quantity: 1 }), 'EX_MARKET_CLOSED');
  desk.at = Date.parse('2026-11-23T14:30:00Z');
  t.type(desk.order('alice', { side: 'buy', price: 1, quantity: 1 }), 'number');
  desk.at = Date.parse('2026-11-26T15:00:00Z');
  t.equal(desk.order('alice', { side: 'buy', price: 1, quantity: 1 }), 'EX_MARKET_CLOSED');
});

t.test('self-trade prevention', async (t) => {
  t.test('cancel-resting: the same account’s crossing resting orders are canceled first', async (t) => {
    const desk = new Desk();
    desk.deposit('alice', 100_000, { AAPL: 100 });
    desk.deposit('bob', 0, { AAPL: 100 });
    const mySell = desk.order('alice', { side: 'sell', price: 50, quantity: 10 }) as number;
    const myFarSell = desk.order('alice', { side: 'sell', price: 70, quantity: 10 }) as number;
    const bobSell = desk.order('bob', { side: 'sell', price: 55, quantity: 10 }) as number;
    const buy = desk.order('alice', { side: 'buy', price: 60, quantity: 10 }) as number;
    t.equal(desk.get(mySell).status, 'canceled');
    t.equal(desk.get(myFarSell).status, 'new', 'a resting order the buy cannot reach stays');
    t.equal(desk.get(bobSell).status, 'completed');
    t.match(desk.get(buy), { status: 'completed', filledQuantity: 10 });
    t.same(
      desk.shares('alice'),
      { available: 100, reserved: 10 },
      '100 - 20 reserved + 10 released + 10 bought',
    );
  });
  t.test('cancel-incoming: the new order is refused, the resting one stays', async (t) => {
    const desk = new Desk(rules({ selfTrade: 'cancel-incoming' }));
    desk.deposit('alice', 100_000, { AAPL: 100 });
    const mySell = desk.order('alice', { side: 'sell', price: 50, quantity: 10 }) as number;
    t.equal(desk.order('alice', { side: 'buy', price: 50, quantity: 10 }), 'EX_SELF_TRADE');
    t.type(desk.order('alice', { side: 'buy', price: 49, quantity: 10 }), 'number');
    t.equal(desk.get(mySell).status, 'new');
  });
  t.test('allow: the account trades with itself', async (t) => {
    const desk = new Desk(rules({ selfTrade: 'allow' }));
    desk.deposit('alice', 100_000, { AAPL: 100 });
    const mySell = desk.order('alice', { side: 'sell', price: 50, quantity: 10 }) as number;
    desk.order('alice', { side: 'buy', price: 50, quantity: 10 });
    t.equal(desk.get(mySell).status, 'completed');
    t.same(desk.cash('alice'), { available: 100_000, reserved: 0 });
    t.same(desk.shares('alice'), { available: 100, reserved: 0 });
  });
});

t.test(
  'the kill switch cancels everything and refuses new orders until off; cancel-all by symbol',
  async (t) => {
    const desk = new Desk();
    desk.deposit('alice', 100_000, { AAPL: 100, MSFT: 100 });
    const a = desk.order('alice', { side: 'buy', price: 10, quantity: 10 }) as number;
    const m = desk.order('alice', { symbol: 'MSFT', side: 'sell', price: 500, quantity: 10 }) as number;
    const b = desk.order('alice', { side: 'sell', price: 900, quantity: 10 }) as number;
    const all = desk.apply({ v: 1, type: 'orders.cancel-all', at: T0, account: 'alice', symbol: 'AAPL' });
    t.same(
      all.events
        .filter((e) => e.type === 'order.canceled')
        .map((e) => (e.type === 'order.canceled' ? [e.orderId, e.reason] : [])),
      [
        [a, 'cancel-all'],
        [b, 'cancel-all'],
      ],
    );
    t.equal(desk.get(m).status, 'new');
    desk.apply({ v: 1, type: 'account.kill-switch', at: T0, account: 'alice', on: true });
    t.equal(desk.get(m).status, 'canceled');
    t.equal(desk.order('alice', { side: 'buy', price: 10, quantity: 10 }), 'EX_KILL_SWITCH');
    t.same(desk.cash('alice'), { available: 100_000, reserved: 0 });
    desk.apply({ v: 1, type: 'account.kill-switch', at: T0, account: 'alice', on: false });
    t.type(desk.order('alice', { side: 'buy', price: 10, quantity: 10 }), 'number');
  },
);

t.test('cancel: only the owner’s, only while in the book', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  desk.deposit('bob', 0, { AAPL: 10 });
  const id = desk.order('alice', { side: 'buy', price: 10, quantity: 10 }) as number;
  t.equal(desk.cancel('bob', id), 'EX_ORDER_NOT_FOUND');
  t.equal(desk.cancel('alice', 999), 'EX_ORDER_NOT_FOUND');
  desk.order('bob', { side: 'sell', price: 10, quantity: 10 });
  t.equal(desk.cancel('alice', id), 'EX_CANNOT_CANCEL_ALREADY_MATCHED');
  // Sequenced anyway (a race upstream): the engine's answer comes back as the same code.
  t.equal(
    desk.apply({ v: 1, type: 'order.cancel', at: T0, account: 'alice', orderId: id }).refusal?.code,
    'EX_CANNOT_CANCEL_ALREADY_MATCHED',
  );
});

t.test('deposits: amounts, symbols, overflow', async (t) => {
  const desk = new Desk();
  t.equal(desk.deposit('alice', -1), 'EX_INVALID_DEPOSIT');
  t.equal(desk.deposit('alice', 0), 'EX_INVALID_DEPOSIT');
  t.equal(desk.deposit('alice', 1.5), 'EX_INVALID_DEPOSIT');
  t.equal(desk.deposit('alice', 0, { TSLA: 1 }), 'EX_UNKNOWN_SYMBOL');
  desk.deposit('alice', Number.MAX_SAFE_INTEGER - 1);
  t.equal(desk.deposit('alice', 2), 'EX_BALANCE_OVERFLOW');
});

t.test('an order the engine refuses after the checks leaves no trace', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  const before = JSON.stringify(desk.cash('alice'));
  // An id already resting: the engine's INVALID_ORDER (the checks never produce one).
  const id = desk.order('alice', { side: 'buy', price: 10, quantity: 1 }) as number;
  const applied = desk.apply({
    v: 1,
    type: 'order.new',
    at: T0,
    account: 'alice',
    orderId: id,
    symbol: 'AAPL',
    side: 'buy',
    price: 10,
    quantity: 5,
  });
  t.equal(applied.refusal?.code, 'EX_INVALID_ORDER');
  t.equal(desk.get(id).quantity, 1);
  desk.cancel('alice', id);
  t.equal(JSON.stringify(desk.cash('alice')), before);
  t.throws(
    () =>
      desk.manager.apply(desk.manager.seq + 2, {
        v: 1,
        type: 'order.cancel',
        at: T0,
        account: 'a',
        orderId: 1,
      }),
    /OUT_OF_ORDER/,
  );
});

t.test('without events the state changes the same', async (t) => {
  const [loud, quiet] = [new Desk(), new Desk()];
  quiet.manager.recordEvents = false;
  for (const desk of [loud, quiet]) {
    desk.deposit('alice', 10_000);
    desk.deposit('bob', 0, { AAPL: 10 });
    desk.order('bob', { side: 'sell', price: 10, quantity: 10 });
    desk.order('alice', { side: 'buy', price: 11, quantity: 15 });
  }
  t.same(quiet.apply({ v: 1, type: 'orders.cancel-all', at: T0, account: 'alice' }).events, []);
  loud.apply({ v: 1, type: 'orders.cancel-all', at: T0, account: 'alice' });
  t.equal(stateDigest(quiet.manager), stateDigest(loud.manager));
});

t.test('a client order id places one order per account and trading day, kept by apply', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 100_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  const first = desk.order('alice', { side: 'buy', price: 10, quantity: 5, clientOrderId: 'c1' });
  t.equal(typeof first, 'number');
  // Filled at once: still known, so a resend of it cannot buy again.
  desk.order('bob', { side: 'sell', price: 10, quantity: 5 });
  t.equal(desk.get(first as number).status, 'completed');
  t.equal(
    desk.order('alice', { side: 'buy', price: 10, quantity: 5, clientOrderId: 'c1' }),
    'EX_DUPLICATE_CLIENT_ORDER_ID',
  );
  t.match(
    desk.manager.checkNewOrder(
      'alice',
      {
        symbol: 'AAPL',
        side: 'buy',
        price: 10,
        quantity: 5,
        orderType: 'limit',
        clientOrderId: 'c1',
      },
      desk.at,
    ),
    { detail: /placed order 1 today/, extra: { orderId: 1 } },
  );
  t.equal(desk.manager.orderByClientId('alice', 'c1', desk.at)?.id, first);
  t.equal(desk.get(first as number).clientOrderId, 'c1', 'the order carries it');
  t.equal(desk.manager.orderByClientId('bob', 'c1', desk.at), undefined, 'per account');
  t.equal(typeof desk.order('bob', { side: 'sell', price: 20, quantity: 1, clientOrderId: 'c1' }), 'number');
  // The next trading day the id is free again, and the day before is forgotten.
  desk.at = T0 + 86_400_000;
  t.equal(desk.manager.orderByClientId('alice', 'c1', desk.at), undefined);
  const nextDay = desk.order('alice', { side: 'buy', price: 10, quantity: 5, clientOrderId: 'c1' });
  t.equal(typeof nextDay, 'number');
  t.not(nextDay, first);
  t.equal(desk.manager.account('alice')!.clientOrderIds.size, 1);
});

t.test('an order id already open is refused; ids above the next one are taken, and it follows', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  const id = desk.order('alice', { side: 'buy', price: 90, quantity: 1 }) as number;
  const command = (orderId: number) =>
    ({
      v: 1,
      type: 'order.new',
      at: T0,
      account: 'alice',
      orderId,
      symbol: 'AAPL',
      side: 'buy',
      price: 91,
      quantity: 1,
    }) as never;
  t.match(desk.apply(command(id)), { refusal: { code: 'EX_INVALID_ORDER' } });
  t.match(desk.get(id), { price: 90 }, 'the open order stands');
  t.equal(desk.manager.nextOrderId, id + 1);
  t.same(desk.apply(command(id + 5)).refusal, undefined);
  t.equal(desk.manager.nextOrderId, id + 6);
  t.match(desk.apply(command(id + 5)), { refusal: { code: 'EX_INVALID_ORDER' } }, 'nor one above the first');
});
