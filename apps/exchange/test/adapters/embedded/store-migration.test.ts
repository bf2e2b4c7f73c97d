/**
 * A journal.db written before the stores were clustered by what the reads ask (executions by id
 * with indexes by account and order; finished orders with indexes by account and ClOrdID) opens,
 * is moved to the new tables once, and reads the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import type { DatabaseSync } from 'node:sqlite';
import { JournalReads } from '../../../src/adapters/embedded/journal-store.ts';
import type { Order } from '../../../src/core/messages.ts';

/** The schema (of these two stores) as the version before wrote it. */
const OLD_SCHEMA = `
  CREATE TABLE executions (
    id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, order_id INTEGER NOT NULL, account TEXT NOT NULL,
    symbol TEXT NOT NULL, side TEXT NOT NULL, price INTEGER NOT NULL, quantity INTEGER NOT NULL,
    at INTEGER NOT NULL, counter_order_id INTEGER
  );
  CREATE INDEX executions_by_account ON executions (account, id);
  CREATE INDEX executions_by_order ON executions (order_id);
  CREATE TABLE finished_orders (
    id INTEGER PRIMARY KEY, account TEXT NOT NULL, symbol TEXT NOT NULL, status TEXT NOT NULL,
    client_order_id TEXT, body TEXT NOT NULL
  );
  CREATE INDEX finished_orders_by_account ON finished_orders (account, id);
  CREATE INDEX finished_orders_by_client_id ON finished_orders (account, client_order_id)
    WHERE client_order_id IS NOT NULL;
`;

const order = (id: number, account: string, status: Order['status'], clientOrderId?: string): Order => ({
  id,
  account,
  creationTime: 5,
  symbol: id % 2 === 0 ? 'AAPL' : 'MSFT',
  side: 'buy',
  price: 10,
  orderType: 'limit',
  quantity: 1,
  filledQuantity: status === 'completed' ? 1 : 0,
  remainingQuantity: status === 'completed' ? 0 : 1,
  status,
  ...(clientOrderId === undefined ? {} : { clientOrderId }),
});

function oldJournal(file: string): void {
  const db = openSqlite(file);
  db.exec(OLD_SCHEMA);
  const execution = db.prepare('INSERT INTO executions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  // id, seq, order, account: a's order 4 filled twice around b's
  for (const [id, orderId, account] of [
    [1, 4, 'a'],
    [2, 5, 'b'],
    [3, 3, 'a'],
    [4, 4, 'a'],
  ] as const)
    execution.run(id, id + 10, orderId, account, 'AAPL', 'buy', 10, 1, 5, 9);
  const finished = db.prepare('INSERT INTO finished_orders VALUES (?, ?, ?, ?, ?, ?)');
  for (const o of [
    order(1, 'a', 'completed', 'x'),
    order(2, 'b', 'canceled'),
    order(3, 'a', 'canceled'),
    order(4, 'a', 'completed', 'x'),
  ])
    finished.run(o.id, o.account, o.symbol, o.status, o.clientOrderId ?? null, JSON.stringify(o));
  db.close();
}

const names = (db: DatabaseSync): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as Array<{
      name: string;
    }>
  ).map((r) => r.name);

t.test('an old journal opens, is migrated once, and reads the same', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ex-store-migration-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'exchange.db');
  oldJournal(file);
  const db = openSqlite(file);
  const reads = new JournalReads(db);
  t.same(
    names(db),
    ['finished_by_client_id_by_id'],
    "the old indexes are gone (the tables' keys answer the reads); the ClOrdIDs' range read has its own",
  );
  t.same(
    reads.executionsOf('a', undefined, []).map((e) => [e.id, e.orderId, e.seq, e.account]),
    [
      [1, 4, 11, 'a'],
      [3, 3, 13, 'a'],
      [4, 4, 14, 'a'],
    ],
    "an account's executions, by id",
  );
  t.same(
    reads.executionsOf('a', 4, []).map((e) => e.id),
    [1, 4],
    "an order's",
  );
  t.same(
    reads.executionsOf('b', undefined, []).map((e) => e.id),
    [2],
  );
  t.same(reads.finishedOrder(3, []), order(3, 'a', 'canceled'), 'an order by id');
  const page = (query: { after: number; limit: number; status?: Order['status'] }) =>
    reads.finishedOrders('a', query, []).map((o) => o.id);
  t.same(page({ after: 0, limit: 10 }), [1, 3, 4], "the account's page");
  t.same(page({ after: 1, limit: 1 }), [3], 'after a cursor');
  t.same(page({ after: 0, limit: 10, status: 'completed' }), [1, 4], 'by status');
  t.ok(reads.hasFinishedAfter('a', 3, []));
  t.notOk(reads.hasFinishedAfter('a', 4, []));
  t.same(
    reads.finishedByClientId('a', 'x', []).map((o) => o.id),
    [1, 4],
    'by ClOrdID',
  );
  t.same(reads.finishedByClientId('b', 'x', []), [], "another account's ClOrdID");
  db.close();
  const again = openSqlite(file);
  const reopened = new JournalReads(again);
  t.same(
    reopened.executionsOf('a', undefined, []).map((e) => e.id),
    [1, 3, 4],
    'opened again: nothing moved twice',
  );
  t.same(
    reopened.finishedOrders('a', { after: 0, limit: 10 }, []).map((o) => o.id),
    [1, 3, 4],
  );
  again.close();
  t.end();
});
