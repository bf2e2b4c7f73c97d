import t from 'tap';
import type { ExchangeEvent } from '../src/core/messages.ts';
import { orderView } from '../src/service.ts';
import { T0 } from './core/exchange-rules.ts';
import { open, refused, tempFile } from './service-fixtures.ts';

t.test('the trading flow through the facade', async (t) => {
  const { service } = open(tempFile(t));
  const events: ExchangeEvent[] = [];
  service.subscribe((batch) => events.push(...batch.events));
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 500 });
  const sell = await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 101,
    orderType: 'limit',
    quantity: 30,
  });
  t.same(sell, {
    id: 1,
    creationTime: T0 + 2,
    symbol: 'AAPL',
    side: 'sell',
    price: 101,
    orderType: 'limit',
    quantity: 30,
    filledQuantity: 0,
    remainingQuantity: 30,
    status: 'new',
  });
  await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 103,
    orderType: 'limit',
    quantity: 10,
  });
  const buy = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 102,
    orderType: 'limit',
    quantity: 50,
  });
  t.match(buy, { id: 3, status: 'new', filledQuantity: 30, remainingQuantity: 20 });
  t.same(service.l1('AAPL'), { bid: { price: 102, quantity: 20 }, ask: { price: 103, quantity: 10 } });
  t.same(service.l2('AAPL', 5), {
    bids: [{ price: 102, quantity: 20 }],
    asks: [{ price: 103, quantity: 10 }],
  });
  t.same(service.l3('AAPL', 5).bids, [{ price: 102, quantity: 20, orders: [{ id: 3, quantity: 20 }] }]);
  t.same(service.account('alice'), {
    account: 'alice',
    cash: { available: 100_000 - 3_030 - 2_040, reserved: 2_040 },
    shares: { AAPL: { available: 30, reserved: 0 } },
    killSwitch: false,
  });
  t.same(service.executions('alice'), {
    executions: [
      {
        id: 1,
        orderId: 3,
        symbol: 'AAPL',
        side: 'buy',
        price: 101,
        orderType: 'limit',
        quantity: 30,
        timestamp: T0 + 4,
      },
    ],
  });
  t.same(service.executions('bob', { orderId: 2 }), { executions: [] });
  t.same(service.candles('AAPL', 60, T0 - 60_000, T0 + 60_000), {
    candles: [
      { open: 101, close: 101, high: 101, low: 101, volume: 30, timestamp: Math.floor(T0 / 60_000) * 60_000 },
    ],
  });
  t.match(await service.cancelOrder('alice', 3), { status: 'canceled', remainingQuantity: 20 });
  t.same(await refused(service.cancelOrder('alice', 3)), {
    code: 'EX_CANNOT_CANCEL_ALREADY_MATCHED',
    status: 409,
  });
  t.same(await refused(service.cancelOrder('alice', 2)), { code: 'EX_ORDER_NOT_FOUND', status: 404 });
  t.throws(() => service.order('alice', 2), { code: 'EX_ORDER_NOT_FOUND' });
  t.same(
    await refused(
      service.placeOrder('alice', {
        symbol: 'AAPL',
        side: 'buy',
        price: 100,
        orderType: 'market',
        quantity: 1,
      }),
    ),
    { code: 'EX_ORDER_TYPE_UNSUPPORTED', status: 400 },
  );
  t.same(
    await refused(
      service.placeOrder('alice', {
        symbol: 'AAPL',
        side: 'buy',
        price: 1_000,
        orderType: 'limit',
        quantity: 1_000,
      }),
    ),
    { code: 'EX_INSUFFICIENT_FUNDS', status: 422 },
  );
  // Pages of the caller's own orders.
  const page1 = service.orders('bob', { limit: 1 });
  t.same(
    page1.data.map((o) => o.id),
    [1],
  );
  t.same(
    service.orders('bob', { limit: 1, after: page1.next_cursor! }).data.map((o) => o.id),
    [2],
  );
  t.same(
    service.orders('bob', { status: 'completed' }).data.map((o) => o.id),
    [1],
  );
  t.same(service.orders('bob', { limit: 2 }).next_cursor, null);
  t.same(
    (await service.cancelAll('bob')).map((o) => o.id),
    [2],
  );
  const killed = await service.setKillSwitch('bob', true);
  t.same(killed, { killSwitch: true, canceled: [] });
  t.same(
    await refused(
      service.placeOrder('bob', {
        symbol: 'AAPL',
        side: 'sell',
        price: 101,
        orderType: 'limit',
        quantity: 1,
      }),
    ),
    { code: 'EX_KILL_SWITCH', status: 403 },
  );
  // Events arrive after their commit, in sequence order.
  const seqs = events.map((e) => e.seq);
  t.same(
    seqs,
    [...seqs].sort((a, b) => a - b),
  );
  t.ok(events.some((e) => e.type === 'execution'));
  t.throws(() => service.l2('TSLA', 1), { code: 'EX_UNKNOWN_SYMBOL' });
  await service.close();
});

t.test(
  'no events are built while no listener is active; an active one gets those from then on',
  async (t) => {
    const { service } = open(tempFile(t));
    const delivered: ExchangeEvent[][] = [];
    let active = false;
    service.subscribe(
      (batch) => delivered.push([...batch.events]),
      () => active,
    );
    await service.deposit('alice', 100_000);
    await service.deposit('bob', 0, { AAPL: 500 });
    const sell = { symbol: 'AAPL', side: 'sell', price: 101, orderType: 'limit', quantity: 10 } as const;
    const buy = { ...sell, side: 'buy', quantity: 4 } as const;
    await service.placeOrder('bob', sell);
    await service.placeOrder('alice', buy);
    t.same(delivered, [], 'nothing while inactive');
    // The answers that list what was canceled read the events: built for them, listener or not.
    t.same(
      (await service.cancelAll('bob')).map((o) => o.id),
      [1],
    );
    t.same((await service.setKillSwitch('alice', true)).canceled, []);
    await service.setKillSwitch('alice', false);
    delivered.length = 0;

    // Within one batch: a command before the listener turns active, one after.
    service.submitOrder('bob', sell);
    active = true;
    const after = service.submitOrder('alice', buy);
    await service.durable();
    t.equal(delivered.length, 1, 'one batch');
    const seqs = new Set(delivered[0]!.map((e) => e.seq));
    t.same([...seqs], [service.seq], 'only the command sequenced while active');
    t.match(delivered[0], [
      { type: 'order.accepted', order: { id: after.id } },
      { type: 'execution', execution: { orderId: after.id } },
      { type: 'execution' },
      { type: 'book.level' },
      { type: 'order.completed', orderId: after.id },
    ]);
    active = false;
    await service.placeOrder('alice', buy);
    t.equal(delivered.length, 1, 'inactive again: nothing more');
    await service.close();
  },
);

t.test(
  'submitOrder and submitCancel answer the order of their command, open or finished by it',
  async (t) => {
    const { service } = open(tempFile(t));
    await service.deposit('alice', 100_000);
    await service.deposit('bob', 0, { AAPL: 500 });
    const limit = { symbol: 'AAPL', orderType: 'limit', price: 100 } as const;
    const rested = service.submitOrder('bob', { ...limit, side: 'sell', quantity: 10 });
    t.match(rested, { id: 1, status: 'new' });
    const filled = service.submitOrder('alice', { ...limit, side: 'buy', quantity: 10 });
    t.match(filled, { id: 2, status: 'completed', filledQuantity: 10 }, 'finished on arrival');
    t.equal(service.ownOrder('alice', 2), filled, 'the object the reads find');
    const resting = service.submitOrder('alice', { ...limit, side: 'buy', quantity: 5 });
    const canceled = service.submitCancel('alice', resting.id);
    t.equal(canceled, resting);
    t.match(canceled, { id: 3, status: 'canceled' });
    await service.durable();
    t.same(service.order('alice', 2), orderView(filled));
    await service.close();
  },
);
