/**
 * The finished orders' store in journal.db: an order that filled or was canceled leaves the
 * in-memory state, is held by the journal until the next snapshot (held-records.ts), and is
 * inserted by that snapshot's transaction, sorted by id with the rest. A finished order never
 * changes again: a row is written once. Reads add the orders held in memory (the same record
 * either way: a generation whose snapshot has committed but is still held is read once).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Order } from '../../core/messages.ts';
import type { FinishedQuery } from '../../ports.ts';
import type { Generation } from './held-records.ts';

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

/** The insert of a JSON array of finished orders (many rows, one statement), for the snapshot's transaction. */
export const insertFinishedOrders = (db: DatabaseSync): StatementSync =>
  db.prepare(`INSERT OR IGNORE INTO finished_orders (id, account, symbol, status, client_order_id, body)
    SELECT value->>'id', value->>'account', value->>'symbol', value->>'status', value->>'clientOrderId', value
    FROM json_each(?)`);

const matches = (order: Order, query: FinishedQuery): boolean =>
  (query.status === undefined || order.status === query.status) &&
  (query.symbol === undefined || order.symbol === query.symbol);

/** The index of the first order above `after` in orders sorted by id. */
function firstAbove(orders: readonly Order[], after: number): number {
  let low = 0;
  let high = orders.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (orders[mid]!.id <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}

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

  order(id: number, held: readonly Generation[]): Order | undefined {
    for (const generation of held) {
      const order = generation.orders.get(id);
      if (order !== undefined) return order;
    }
    const row = this.#byId.get(id) as { body: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.body) as Order);
  }

  /** The account's first `query.limit` finished orders above `query.after` that match, in id order. */
  page(account: string, query: FinishedQuery, held: readonly Generation[]): Order[] {
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
    // Each source's first `limit` holds the first `limit` of them all.
    for (const generation of held) {
      const orders = generation.ordersOf(account);
      let taken = 0;
      for (let i = firstAbove(orders, query.after); i < orders.length && taken < query.limit; i++) {
        const order = orders[i]!;
        if (!matches(order, query)) continue;
        found.set(order.id, order);
        taken++;
      }
    }
    return [...found.values()].sort((a, b) => a.id - b.id).slice(0, query.limit);
  }

  /** Whether the account has a finished order above `after` (of any status or symbol). */
  anyAfter(account: string, after: number, held: readonly Generation[]): boolean {
    for (const generation of held) {
      const orders = generation.ordersOf(account);
      if (orders.length > 0 && orders[orders.length - 1]!.id > after) return true;
    }
    return this.#anyAfter.get(account, after) !== undefined;
  }

  /** The account's finished orders placed under a client order id, oldest first. */
  byClientId(account: string, clientOrderId: string, held: readonly Generation[]): Order[] {
    const found = new Map<number, Order>();
    for (const row of this.#byClientId.all(account, clientOrderId) as Array<{ body: string }>) {
      const order = JSON.parse(row.body) as Order;
      found.set(order.id, order);
    }
    for (const generation of held)
      for (const order of generation.byClientId(account, clientOrderId)) found.set(order.id, order);
    return [...found.values()].sort((a, b) => a.id - b.id);
  }
}
