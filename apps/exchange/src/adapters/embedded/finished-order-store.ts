/**
 * The finished orders' store in journal.db: an order that filled or was canceled leaves the
 * in-memory state and is inserted here by the journal's batch writer, in the transaction of the
 * batch whose command finished it (so the store and the journal never disagree). A finished
 * order never changes again: a row is written once. Reads add the orders finished but not yet
 * committed (the same record either way: a batch committed by the writer thread while still
 * listed as unwritten is read once).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Order } from '../../core/messages.ts';
import type { FinishedQuery } from '../../ports.ts';

export function ensureFinishedOrderStore(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS finished_orders (
      id INTEGER PRIMARY KEY,
      account TEXT NOT NULL,
      symbol TEXT NOT NULL,
      status TEXT NOT NULL,
      client_order_id TEXT,
      body TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS finished_orders_by_account ON finished_orders (account, id);
    CREATE INDEX IF NOT EXISTS finished_orders_by_client_id ON finished_orders (account, client_order_id)
      WHERE client_order_id IS NOT NULL;
  `);
}

/** The insert of a batch's finished orders (a JSON array of them), for the batch writer. */
export const insertFinishedOrders = (db: DatabaseSync): StatementSync =>
  db.prepare(`INSERT INTO finished_orders (id, account, symbol, status, client_order_id, body)
    SELECT value->>'id', value->>'account', value->>'symbol', value->>'status', value->>'clientOrderId', value
    FROM json_each(?)`);

/** The orders finished but not known to be committed (the batch with the writer, the one gathering). */
export type Unwritten = ReadonlyArray<ReadonlyMap<number, Order>>;

const matches = (order: Order, account: string, query: FinishedQuery): boolean =>
  order.account === account &&
  order.id > query.after &&
  (query.status === undefined || order.status === query.status) &&
  (query.symbol === undefined || order.symbol === query.symbol);

export class FinishedOrderReads {
  readonly #byId: StatementSync;
  readonly #page: StatementSync;
  readonly #anyAfter: StatementSync;
  readonly #byClientId: StatementSync;

  constructor(db: DatabaseSync) {
    ensureFinishedOrderStore(db);
    this.#byId = db.prepare('SELECT body FROM finished_orders WHERE id = ?');
    // NULL filters match every row: one statement for every combination of them.
    this.#page = db.prepare(`SELECT body FROM finished_orders
      WHERE account = ?1 AND id > ?2 AND (?3 IS NULL OR status = ?3) AND (?4 IS NULL OR symbol = ?4)
      ORDER BY id LIMIT ?5`);
    this.#anyAfter = db.prepare('SELECT 1 FROM finished_orders WHERE account = ? AND id > ? LIMIT 1');
    this.#byClientId = db.prepare(
      'SELECT body FROM finished_orders WHERE account = ? AND client_order_id = ? ORDER BY id',
    );
  }

  order(id: number, unwritten: Unwritten): Order | undefined {
    for (const orders of unwritten) {
      const pending = orders.get(id);
      if (pending !== undefined) return pending;
    }
    const row = this.#byId.get(id) as { body: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.body) as Order);
  }

  /** The account's first `query.limit` finished orders above `query.after` that match, in id order. */
  page(account: string, query: FinishedQuery, unwritten: Unwritten): Order[] {
    const rows = this.#page.all(
      account,
      query.after,
      query.status ?? null,
      query.symbol ?? null,
      query.limit,
    ) as Array<{ body: string }>;
    const found = new Map<number, Order>();
    for (const row of rows) {
      const order = JSON.parse(row.body) as Order;
      found.set(order.id, order);
    }
    for (const orders of unwritten)
      for (const order of orders.values()) if (matches(order, account, query)) found.set(order.id, order);
    return [...found.values()].sort((a, b) => a.id - b.id).slice(0, query.limit);
  }

  /** Whether the account has a finished order above `after` (of any status or symbol). */
  anyAfter(account: string, after: number, unwritten: Unwritten): boolean {
    if (this.#anyAfter.get(account, after) !== undefined) return true;
    for (const orders of unwritten)
      for (const order of orders.values()) if (order.account === account && order.id > after) return true;
    return false;
  }

  /** The account's finished orders placed under a client order id, oldest first. */
  byClientId(account: string, clientOrderId: string, unwritten: Unwritten): Order[] {
    const found = new Map<number, Order>();
    for (const row of this.#byClientId.all(account, clientOrderId) as Array<{ body: string }>) {
      const order = JSON.parse(row.body) as Order;
      found.set(order.id, order);
    }
    for (const orders of unwritten)
      for (const order of orders.values())
        if (order.account === account && order.clientOrderId === clientOrderId) found.set(order.id, order);
    return [...found.values()].sort((a, b) => a.id - b.id);
  }
}
