// The checks before a request is sequenced (src/core/command-checks.ts): the wallet, the gateway's
// rules, risk, the session, self-trade, cancels and deposits.
import t from 'tap';
import { parseHours } from '../../src/core/trading-hours.ts';
import { Desk, rules, T0 } from './exchange-rules.ts';

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
