import t from 'tap';
import type { Order } from '../../src/core/messages.ts';
import { orderView } from '../../src/core/views.ts';

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

t.test("the view's bytes are those of the order without its account, keys in the same order", async (t) => {
  // The answer's bytes follow the keys' order, which strictSame does not see: compare the JSON.
  const withoutAccount = ({ account: _account, ...rest }: Order): Omit<Order, 'account'> => rest;
  for (const o of [order, { ...order, clientOrderId: 'c-1' }]) {
    t.equal(JSON.stringify(orderView(o)), JSON.stringify(withoutAccount(o)));
  }
});
