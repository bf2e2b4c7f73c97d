import t from 'tap';
import { Generation } from '../../../src/adapters/embedded/held-records.ts';
import { finishedOrder } from './journal-fixtures.ts';

t.test('finished orders by client order id: per account, oldest first, across asks', async (t) => {
  const held = new Generation();
  const ids = (account: string, clientOrderId: string) =>
    held.byClientId(account, clientOrderId).map((o) => o.id);
  held.addOrder(finishedOrder(1, 'alice', 'a'));
  held.addOrder(finishedOrder(2, 'bob', 'a'));
  held.addOrder(finishedOrder(3, 'alice'));
  t.same(ids('alice', 'a'), [1]);
  t.same(ids('bob', 'a'), [2], 'another account’s id is its own');
  t.same(ids('alice', 'b'), []);
  // Finished after an ask: found on the next one, after the older ones.
  held.addOrder(finishedOrder(5, 'alice', 'a'));
  held.addOrder(finishedOrder(4, 'alice', 'b'));
  t.same(ids('alice', 'a'), [1, 5]);
  t.same(ids('alice', 'b'), [4]);
  t.same(ids('alice', '3'), [], 'an order without one is not found by its id');
  t.same(
    held.ordersOf('alice').map((o) => o.id),
    [1, 3, 4, 5],
  );
});
