import t from 'tap';
import { DatabaseSync } from 'node:sqlite';
import {
  finishedOrderInserts,
  FinishedOrderReads,
} from '../../../src/adapters/embedded/finished-order-store.ts';
import type { Order } from '../../../src/core/messages.ts';
import { finishedOrder } from './journal-fixtures.ts';

const order = (id: number, creationTime: number, clientOrderId?: string): Order =>
  finishedOrder(id, id % 2 === 0 ? 'alice' : 'bob', clientOrderId, creationTime);

t.test('the client order ids of the orders created from a time on: found by bisecting ids', async (t) => {
  const db = new DatabaseSync(':memory:');
  const reads = new FinishedOrderReads(db);
  t.same(
    reads.clientIdsFrom(() => true),
    [],
    'an empty store',
  );
  // Ids with holes, creation times growing with them; every third without a ClOrdID.
  const orders: Order[] = [];
  for (let id = 5; id < 2_000; id += 1 + (id % 4))
    orders.push(order(id, id * 10, id % 3 === 0 ? undefined : `c${id}`));
  const inserts = finishedOrderInserts(db);
  inserts.orders.run(JSON.stringify(orders));
  const byClientId = orders.flatMap((o) =>
    o.clientOrderId === undefined ? [] : [[o.account, o.clientOrderId, o.id]],
  );
  inserts.byClientId.run(JSON.stringify(byClientId));
  for (const from of [0, 50, 51, 7_777, 19_990, 20_000, 1e9]) {
    const expected = orders
      .filter((o) => o.creationTime >= from && o.clientOrderId !== undefined)
      .map((o) => [o.account, o.clientOrderId]);
    t.same(reads.clientIdsFrom((at) => at >= from).sort(), expected.sort(), `from ${from}`);
  }
  db.close();
});

t.test(
  'the client order ids from an id on are an indexed range read, not a read of the whole table',
  async (t) => {
    const db = new DatabaseSync(':memory:');
    new FinishedOrderReads(db);
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT account, client_order_id FROM finished_by_client_id WHERE id >= ?')
      .all(1) as Array<{ detail: string }>;
    t.match(
      plan.map((row) => row.detail).join('; '),
      /USING COVERING INDEX finished_by_client_id_by_id \(id>\?\)/,
    );
    db.close();
  },
);
