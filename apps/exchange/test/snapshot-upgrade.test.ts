/**
 * A journal whose latest snapshot was written before finished orders and executions left the
 * state (that snapshot holds them all, and journal.db has no tables for them): its finished
 * orders and executions are read into the journal on the first start, answered from there, and
 * stored by the next snapshot; nothing is dropped.
 */
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import type { DatabaseSync } from 'node:sqlite';
import { fund, orderFlow, send } from '../bench/order-flow.ts';
import type { ExecutionTableRow } from '../src/adapters/embedded/execution-store.ts';
import type { Execution, Order } from '../src/core/messages.ts';
import { T0 } from './core/exchange-rules.ts';
import { flow, open, reads, record, tempFile } from './finished-reads-fixtures.ts';

const SNAPSHOT_EVERY = 50;

type Part = Record<string, unknown>;

const counterOf = (row: { counter_order_id: number | null }) => row.counter_order_id ?? 0;

/** The executions stored, as the old snapshots carried them (whole Execution records). */
function storedExecutions(db: DatabaseSync): Execution[] {
  const rows = db
    .prepare(
      'SELECT id, seq, order_id, account, symbol, side, price, quantity, at, counter_order_id FROM executions ORDER BY id',
    )
    .all() as unknown as Array<ExecutionTableRow & { counter_order_id: number | null }>;
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    account: r.account,
    symbol: r.symbol,
    side: r.side,
    price: r.price,
    orderType: 'limit',
    quantity: r.quantity,
    counterOrderId: counterOf(r),
    at: r.at,
    seq: r.seq,
  }));
}

/**
 * Rewrites the latest snapshot (taken after the last command, so the tables hold everything) in
 * the format of the version before: every order of the day in the orders parts, each account's
 * order ids and executions in its parts, no retired fold; and drops the tables, as that version
 * had none.
 */
function downgrade(file: string): number {
  const db = openSqlite(file);
  const { seq } = db.prepare('SELECT MAX(seq) AS seq FROM snapshot_parts').get() as { seq: number };
  const parts = (
    db.prepare('SELECT body FROM snapshot_parts WHERE seq = ? ORDER BY part').all(seq) as Array<{
      body: string;
    }>
  ).map((row) => JSON.parse(row.body) as Part);
  const finished = (
    db.prepare('SELECT body FROM finished_orders ORDER BY id').all() as Array<{ body: string }>
  ).map((row) => JSON.parse(row.body) as Order);
  const executions = storedExecutions(db);
  const head: Part = { ...parts[0]! };
  delete head['retired'];
  const open = parts.flatMap((p) => (p['orders'] as Order[] | undefined) ?? []);
  const orders = [...open, ...finished].sort((a, b) => a.id - b.id);
  const old: Part[] = [head, ...parts.filter((p) => 'engine' in p || 'tape' in p), { orders }];
  for (const p of parts) {
    if (!('account' in p)) continue;
    const account = p['account'] as { id: string };
    const ids = orders.filter((o) => o.account === account.id).map((o) => o.id);
    old.push({ account: { ...account, orders: ids } });
    old.push({ executions: [account.id, executions.filter((e) => e.account === account.id)] });
  }
  db.exec(`DROP TABLE executions; DROP TABLE finished_orders; DROP TABLE finished_by_account;
    DROP TABLE finished_by_client_id; DELETE FROM snapshot_parts`);
  const insert = db.prepare('INSERT INTO snapshot_parts (seq, part, body) VALUES (?, ?, ?)');
  old.forEach((part, i) => insert.run(seq, i, JSON.stringify(part)));
  db.close();
  return finished.length;
}

const count = (file: string, table: string): number => {
  const db = openSqlite(file);
  const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number };
  db.close();
  return n;
};

t.test('an old-format snapshot: its finished orders and executions are kept, then stored', async (t) => {
  const file = tempFile(t);
  const service = open(file, SNAPSHOT_EVERY);
  const history = record(service);
  await fund(service, flow);
  const next = orderFlow(flow);
  // Up to a snapshot, so the old-format one stands for the whole state.
  while (service.seq < 6 * SNAPSHOT_EVERY || service.seq % SNAPSHOT_EVERY !== 0) {
    send(service, next());
    if (service.seq % 20 === 0) await service.durable();
  }
  await service.durable();
  const before = reads(service, history);
  await service.close();
  const finished = downgrade(file);
  t.ok(finished > 20, `${finished} finished orders in the old-format snapshot`);

  const upgraded = open(file, SNAPSHOT_EVERY, T0 + 10_000_000);
  t.equal(reads(upgraded, history), before, 'every read after the upgrade');
  const digest = upgraded.digest();
  await upgraded.close();
  t.equal(count(file, 'finished_orders'), 0, 'held until the next snapshot');

  const again = open(file, SNAPSHOT_EVERY, T0 + 20_000_000);
  t.equal(again.digest(), digest, 'the same state at every start from the old snapshot');
  t.equal(reads(again, history), before, 'and the same reads');
  const later = record(again);
  // Past the next snapshot, and some commands after it.
  const through = again.seq + SNAPSHOT_EVERY + SNAPSHOT_EVERY / 2;
  while (again.seq < through) send(again, next());
  await again.durable();
  t.ok(count(file, 'finished_orders') >= finished, 'the next snapshot stored them');
  const history2 = {
    ids: new Map([...history.ids].map(([a, ids]) => [a, [...ids, ...(later.ids.get(a) ?? [])]])),
    executions: [...history.executions, ...later.executions],
  };
  const after = reads(again, history2);
  const digest2 = again.digest();
  await again.close();

  const restarted = open(file, SNAPSHOT_EVERY, T0 + 30_000_000);
  t.equal(restarted.digest(), digest2, 'the digest after a restart from the new snapshot');
  t.equal(reads(restarted, history2), after, 'every read after it');
  await restarted.close();
});
