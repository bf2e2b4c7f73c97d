import t from 'tap';
import { Generation } from '../../../src/adapters/embedded/held-records.ts';
import { execution, finishedOrder } from './journal-fixtures.ts';

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

t.test('indexes built on reading see every record added before the read, each once', async (t) => {
  const held = new Generation();
  held.addOrder(finishedOrder(2, 'alice'));
  held.addExecution(execution(1, 1, 'alice'));
  t.equal(held.order(2)?.id, 2);
  t.equal(held.order(1), undefined);
  t.same(
    held.executionsOf('alice').map((e) => e.id),
    [1],
  );
  // Added after those reads: the next reads find them, after the ones before.
  held.addOrder(finishedOrder(1, 'alice'));
  held.addOrder(finishedOrder(3, 'bob'));
  held.addExecution(execution(2, 2, 'bob'));
  held.addExecution(execution(3, 3, 'alice'));
  t.equal(held.order(1)?.id, 1);
  t.same(
    held.ordersOf('alice').map((o) => o.id),
    [1, 2],
  );
  t.same(
    held.executionsOf('alice').map((e) => e.id),
    [1, 3],
  );
  t.same(
    held.executionsOf('bob').map((e) => e.id),
    [2],
  );
  t.same(
    held.orders().map((o) => o.id),
    [2, 1, 3],
    'every order, in finishing order',
  );
});
