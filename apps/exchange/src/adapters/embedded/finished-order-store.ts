/**
 * The finished orders' store in journal.db: an order that filled or was canceled leaves the
 * in-memory state, is held by the journal until the next snapshot (held-records.ts), and is
 * inserted by that snapshot's transaction. A finished order never changes again: a row is written
 * once. The orders (by id) have no index: what the reads look up by account or by ClOrdID is in
 * tables clustered by those keys, each inserted from rows sorted its own way, so every b-tree
 * takes a snapshot's rows in one sweep (an index by account took them at one random leaf per
 * row, issue #12). Reads add the orders held in memory (the same record either way: a generation
 * whose snapshot has committed but is still held is read once).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
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
    CREATE TABLE IF NOT EXISTS finished_by_account (
      account TEXT NOT NULL,
      id INTEGER NOT NULL,
      status TEXT NOT NULL,
      symbol TEXT NOT NULL,
      PRIMARY KEY (account, id)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS finished_by_client_id (
      account TEXT NOT NULL,
      client_order_id TEXT NOT NULL,
      id INTEGER NOT NULL,
      PRIMARY KEY (account, client_order_id, id)
    ) WITHOUT ROWID;
    -- A restart from a snapshot reads the ClOrdIDs of the day's orders, a range of ids: without
    -- this the whole table was read (measured: docs/benchmarks.md, 2026-11-29). Ids grow, so each snapshot's rows
    -- go at its right-hand end.
    CREATE INDEX IF NOT EXISTS finished_by_client_id_by_id ON finished_by_client_id (id);
  `);
  // A journal from before: the orders' own indexes by account and by ClOrdID.
  const old = () =>
    db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'finished_orders_by_account'")
      .get() !== undefined;
  if (!old()) return;
  transaction(db, () => {
    if (!old()) return; // another connection migrated it meanwhile
    db.exec(`
      INSERT OR IGNORE INTO finished_by_account (account, id, status, symbol)
        SELECT account, id, status, symbol FROM finished_orders ORDER BY account, id;
      INSERT OR IGNORE INTO finished_by_client_id (account, client_order_id, id)
        SELECT account, client_order_id, id FROM finished_orders WHERE client_order_id IS NOT NULL
        ORDER BY account, client_order_id, id;
      DROP INDEX finished_orders_by_account;
      DROP INDEX IF EXISTS finished_orders_by_client_id;
    `);
  });
}

/** The inserts of a snapshot's transaction, each of a JSON array of rows (many rows, one statement). */
export interface FinishedOrderInserts {
  /** Of finished orders, sorted by id. */
  readonly orders: StatementSync;
  /** Of [account, id, status, symbol], sorted by account and id. */
  readonly byAccount: StatementSync;
  /** Of [account, clientOrderId, id], sorted so. */
  readonly byClientId: StatementSync;
}

export const finishedOrderInserts = (db: DatabaseSync): FinishedOrderInserts => ({
  orders:
    db.prepare(`INSERT OR IGNORE INTO finished_orders (id, account, symbol, status, client_order_id, body)
    SELECT value->>'id', value->>'account', value->>'symbol', value->>'status', value->>'clientOrderId', value
    FROM json_each(?)`),
  byAccount: db.prepare(`INSERT OR IGNORE INTO finished_by_account (account, id, status, symbol)
    SELECT value->>0, value->>1, value->>2, value->>3 FROM json_each(?)`),
  byClientId: db.prepare(`INSERT OR IGNORE INTO finished_by_client_id (account, client_order_id, id)
    SELECT value->>0, value->>1, value->>2 FROM json_each(?)`),
});

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
  readonly #firstFrom: StatementSync;
  readonly #clientIdsFrom: StatementSync;

  constructor(db: DatabaseSync) {
    ensureFinishedOrderStore(db);
    this.#byId = db.prepare('SELECT body FROM finished_orders WHERE id = ?');
    // NULL filters match every row: one statement for every combination of them.
    this.#page = db.prepare(`SELECT o.body FROM finished_by_account a JOIN finished_orders o ON o.id = a.id
      WHERE a.account = ?1 AND a.id > ?2 AND (?3 IS NULL OR a.status = ?3) AND (?4 IS NULL OR a.symbol = ?4)
      ORDER BY a.id LIMIT ?5`);
    this.#anyAfter = db.prepare('SELECT 1 FROM finished_by_account WHERE account = ? AND id > ? LIMIT 1');
    this.#byClientId =
      db.prepare(`SELECT o.body FROM finished_by_client_id c JOIN finished_orders o ON o.id = c.id
      WHERE c.account = ? AND c.client_order_id = ? ORDER BY c.id`);
    this.#firstFrom = db.prepare(
      "SELECT id, body->>'creationTime' AS at FROM finished_orders WHERE id >= ? ORDER BY id LIMIT 1",
    );
    // The ClOrdIDs' own table: a journal of orders without one (REST, the pipeline) has none to
    // read, where a range of finished_orders would read every order of the day, bodies and all;
    // its index by id (which holds the account and ClOrdID too) reads the range alone.
    this.#clientIdsFrom = db.prepare(
      'SELECT account, client_order_id AS clientOrderId FROM finished_by_client_id WHERE id >= ?',
    );
  }

  /**
   * [account, client order id] of the stored finished orders created from the first time `from`
   * accepts on (`from` holds from some time on: a trading day's start). Ids grow with creation
   * times, so the first such order is found by bisecting ids; the ids from it on are then read
   * off the ClOrdIDs' table.
   */
  clientIdsFrom(from: (creationTime: number) => boolean): Array<[string, string]> {
    const first = (id: number) => this.#firstFrom.get(id) as { id: number; at: number } | undefined;
    let low = 0;
    let high = Number.MAX_SAFE_INTEGER;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      const row = first(mid);
      if (row === undefined || from(row.at)) high = mid;
      else low = row.id + 1;
    }
    const rows = this.#clientIdsFrom.all(low) as Array<{ account: string; clientOrderId: string }>;
    return rows.map((row) => [row.account, row.clientOrderId]);
  }

  order(id: number, held: readonly Generation[]): Order | undefined {
    for (const generation of held) {
      const order = generation.order(id);
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
