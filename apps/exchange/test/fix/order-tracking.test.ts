import t from 'tap';
import type { Execution, ExchangeEvent } from '../../src/core/messages.ts';
import { filledBefore, OrderTracking } from '../../src/fix/order-tracking.ts';
import type { DurableBatch } from '../../src/outbox.ts';

const FACTS = { symbol: 'AAPL', side: 'buy', price: 150, quantity: 10 } as const;

function execution(orderId: number, quantity: number, price: number, id = orderId * 100): Execution {
  return {
    id,
    orderId,
    account: 'alice',
    symbol: 'AAPL',
    side: 'buy',
    price,
    orderType: 'limit',
    quantity,
    counterOrderId: 99,
    at: 0,
    seq: 1,
  };
}

t.test(
  'an order placed is tracked from nothing filled; each fill counts; filled, it is forgotten',
  async (t) => {
    const tracking = new OrderTracking();
    const placed = tracking.placed('alice', 1, 'c1', FACTS);
    t.match(placed, { orderId: 1, clOrdId: 'c1', cumQty: 0, filledNotional: 0, quantity: 10 });
    t.equal(tracking.known('alice', 1), placed);
    t.equal(tracking.known('bob', 1), undefined, 'per account');
    t.equal(tracking.accounts, 1);
    tracking.fill(placed, execution(1, 4, 149));
    t.match(tracking.known('alice', 1), { cumQty: 4, filledNotional: 596 });
    tracking.fill(placed, execution(1, 6, 150));
    t.match(placed, { cumQty: 10, filledNotional: 1_496 }, 'the report still reads the filled order');
    t.equal(tracking.known('alice', 1), undefined);
    t.equal(tracking.accounts, 0, 'an account with no order left holds no memory');
  },
);

t.test(
  'an order met in a batch starts from its filled quantity, known by its id without a ClOrdID',
  async (t) => {
    const tracking = new OrderTracking();
    const rest = tracking.met('alice', 7, FACTS, 3);
    t.match(
      rest,
      { clOrdId: '7', cumQty: 3, filledNotional: 450 },
      'the limit price stands in for fills before',
    );
    const fix = tracking.met('alice', 8, { ...FACTS, clientOrderId: 'c8' }, 0);
    t.equal(fix.clOrdId, 'c8');
    tracking.forget('alice', rest);
    t.equal(tracking.accounts, 1, 'the other order is still tracked');
    tracking.forget('alice', fix);
    tracking.forget('alice', fix);
    t.equal(tracking.accounts, 0, 'forgetting twice is harmless');
  },
);

t.test('filledBefore: the batch’s filled quantity less the order’s fills from the event on', async (t) => {
  const fill = (orderId: number, quantity: number): ExchangeEvent =>
    ({
      type: 'execution',
      execution: execution(orderId, quantity, 150, orderId * 100 + quantity),
    }) as ExchangeEvent;
  const batch: DurableBatch = {
    events: [fill(1, 2), fill(2, 5), fill(1, 3)],
    l1: new Map(),
    filled: new Map([
      [1, 9],
      [2, 5],
    ]),
  };
  t.equal(filledBefore(1, batch, 0), 4, 'the order had 4 before this batch');
  t.equal(filledBefore(1, batch, 2), 6, 'and 6 before its second fill of the batch');
  t.equal(filledBefore(2, batch, 1), 0);
});
