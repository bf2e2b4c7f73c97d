import t from 'tap';
import { stateDigest } from '../../src/core/state-snapshot.ts';
import { Desk, T0 } from './exchange-rules.ts';

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
