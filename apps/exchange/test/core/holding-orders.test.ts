import t from 'tap';
import { HoldingOrders, type OpenOrder } from '../../src/core/holding-orders.ts';

interface Mutable {
  id: number;
  side: 'buy' | 'sell';
  price: number;
  status: string;
}

const order = (id: number): Mutable => ({ id, side: 'buy', price: 100 + id, status: 'new' });
const ids = (list: HoldingOrders): number[] => list.live().map((o: OpenOrder) => o.id);

t.test('the live orders, oldest first; finished ones leave at the next read', async (t) => {
  const list = new HoldingOrders();
  const orders = [1, 2, 3, 4].map(order);
  for (const o of orders) list.add(o);
  t.same(ids(list), [1, 2, 3, 4]);
  orders[1]!.status = 'completed';
  list.finished();
  orders[3]!.status = 'canceled';
  list.finished();
  t.same(ids(list), [1, 3]);
  list.add(order(5));
  t.same(ids(list), [1, 3, 5]);
});

t.test('an undone order, still new, is taken out at once', async (t) => {
  const list = new HoldingOrders();
  const orders = [1, 2, 3].map(order);
  for (const o of orders) list.add(o);
  list.remove(orders[1]!);
  t.same(ids(list), [1, 3]);
  list.remove(order(9));
  t.same(ids(list), [1, 3], 'one not there changes nothing');
});

t.test('any mix of places, fills, undos and reads answers what a map of the open ones would', async (t) => {
  let seed = 7;
  const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const list = new HoldingOrders();
  const open = new Map<number, Mutable>();
  let next = 1;
  for (let step = 0; step < 20_000; step++) {
    const r = random();
    const keys = [...open.keys()];
    const some = keys.length === 0 ? undefined : open.get(keys[Math.floor(random() * keys.length)]!)!;
    if (r < 0.45 || some === undefined) {
      const o = order(next++);
      list.add(o);
      open.set(o.id, o);
    } else if (r < 0.9) {
      some.status = random() < 0.5 ? 'completed' : 'canceled';
      open.delete(some.id);
      list.finished();
    } else if (r < 0.93) {
      list.remove(some);
      open.delete(some.id);
    } else if (ids(list).join() !== [...open.keys()].join()) {
      t.fail(`step ${step}: ${ids(list).join()} against ${[...open.keys()].join()}`);
      return;
    }
  }
  t.same(ids(list), [...open.keys()]);
});
