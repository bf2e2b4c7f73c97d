import t from 'tap';
import type { Order } from '../../src/core/messages.ts';
import { orderCopy, orderView } from '../../src/core/views.ts';

const order: Order = {
  id: 7,
  account: 'alice',
  creationTime: 1_000,
  symbol: 'AAPL',
  side: 'buy',
  price: 100,
  orderType: 'limit',
  quantity: 10,
  filledQuantity: 4,
  remainingQuantity: 6,
  status: 'new',
};

t.test("the API's view is the order without its account, every other field kept", async (t) => {
  const expected = {
    id: 7,
    creationTime: 1_000,
    symbol: 'AAPL',
    side: 'buy',
    price: 100,
    orderType: 'limit',
    quantity: 10,
    filledQuantity: 4,
    remainingQuantity: 6,
    status: 'new',
  };
  t.strictSame(orderView(order), expected);
  t.notOk('account' in orderView(order));
  t.notOk('clientOrderId' in orderView(order), 'no client order id when it gave none');
  const withId: Order = { ...order, clientOrderId: 'c-1' };
  t.strictSame(orderView(withId), { ...expected, clientOrderId: 'c-1' });
});

t.test("an event's copy is the order as it stood, apart from it", async (t) => {
  const live: Order = { ...order, clientOrderId: 'c-2' };
  const copy = orderCopy(live);
  t.strictSame(copy, live);
  t.not(copy, live);
  live.filledQuantity = 10;
  live.remainingQuantity = 0;
  live.status = 'completed';
  t.equal(copy.filledQuantity, 4, 'later fills do not reach the copy');
  t.equal(copy.status, 'new');
  t.notOk('clientOrderId' in orderCopy(order));
});
