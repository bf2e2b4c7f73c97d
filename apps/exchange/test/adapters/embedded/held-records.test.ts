import t from 'tap';
import { Generation } from '../../../src/adapters/embedded/held-records.ts';
import type { Order } from '../../../src/core/messages.ts';

const order = (id: number, account: string, clientOrderId?: string): Order => ({
  id,
  account,
  creationTime: 0,
  symbol: 'AAPL',
  side: 'buy',
  price: 100,
  orderType: 'limit',
  quantity: 1,
  filledQuantity: 1,
  remainingQuantity: 0,
  status: 'completed',
  ...(clientOrderId === undefined ? {} : { clientOrderId }),
});

t.test('finished orders by client order id: per account, oldest first, across asks', async (t) => {
  const held = new Generation();
  const ids = (account: string, clientOrderId: string) =>
    held.byClientId(account, clientOrderId).map((o) => o.id);
  held.addOrder(order(1, 'alice', 'a'));
  held.addOrder(order(2, 'bob', 'a'));
  held.addOrder(order(3, 'alice'));
  t.same(ids('alice', 'a'), [1]);
  t.same(ids('bob', 'a'), [2], 'another account’s id is its own');
  t.same(ids('alice', 'b'), []);
  // Finished after an ask: found on the next one, after the older ones.
  held.addOrder(order(5, 'alice', 'a'));
  held.addOrder(order(4, 'alice', 'b'));
  t.same(ids('alice', 'a'), [1, 5]);
  t.same(ids('alice', 'b'), [4]);
  t.same(ids('alice', '3'), [], 'an order without one is not found by its id');
  t.same(
    held.ordersOf('alice').map((o) => o.id),
    [1, 3, 4, 5],
  );
});
