/**
 * The executions store in journal.db: a row per execution, inserted by the transaction of the
 * snapshot that followed it (held-records.ts), so a row is written once, sorted by id with the
 * rest of its snapshot. Reads add the executions held in memory since the last stored snapshot.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Execution } from '../../core/messages.ts';
import type { StoredExecution } from '../../ports.ts';
import type { Generation } from './held-records.ts';

const COLUMNS = 'id, seq, order_id, account, symbol, side, price, quantity, at, counter_order_id';

export function ensureExecutionStore(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS executions (
      id INTEGER PRIMARY KEY,
      seq INTEGER NOT NULL,
      order_id INTEGER NOT NULL,
      account TEXT NOT NULL,
      symbol TEXT NOT NULL,
      side TEXT NOT NULL,
      price INTEGER NOT NULL,
      quantity INTEGER NOT NULL,
      at INTEGER NOT NULL,
      counter_order_id INTEGER
    );
    CREATE INDEX IF NOT EXISTS executions_by_account ON executions (account, id);
    CREATE INDEX IF NOT EXISTS executions_by_order ON executions (order_id);
  `);
}

/** The insert of a JSON array of ExecutionRows (many rows, one statement), for the snapshot's transaction. */
export const insertExecutions = (db: DatabaseSync): StatementSync =>
  db.prepare(`INSERT OR IGNORE INTO executions (${COLUMNS})
    SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7,
      value->>8, value->>9 FROM json_each(?)`);

/** A row of the executions table as read back (the counter order aside). */
export interface ExecutionTableRow {
  id: number;
  seq: number;
  order_id: number;
  account: string;
  symbol: string;
  side: 'buy' | 'sell';
  price: number;
  quantity: number;
  at: number;
}

const fromRow = (r: ExecutionTableRow): StoredExecution => ({
  id: r.id,
  orderId: r.order_id,
  account: r.account,
  symbol: r.symbol,
  side: r.side,
  price: r.price,
  orderType: 'limit',
  quantity: r.quantity,
  at: r.at,
  seq: r.seq,
});

export class ExecutionStoreReads {
  readonly #ofAccount: StatementSync;
  readonly #ofOrder: StatementSync;

  constructor(db: DatabaseSync) {
    ensureExecutionStore(db);
    const select = 'SELECT id, seq, order_id, account, symbol, side, price, quantity, at FROM executions';
    this.#ofAccount = db.prepare(`${select} WHERE account = ? AND id < ? ORDER BY id`);
    this.#ofOrder = db.prepare(`${select} WHERE order_id = ? AND account = ? AND id < ? ORDER BY id`);
  }

  /**
   * The account's executions (of one order), oldest first: the stored ones below the first held,
   * then the held ones. A generation whose snapshot has committed but is still held is read once.
   */
  executionsOf(account: string, orderId: number | undefined, held: readonly Generation[]): StoredExecution[] {
    const recent: Execution[] = [];
    for (const generation of held)
      for (const e of generation.executionsOf(account))
        if (orderId === undefined || e.orderId === orderId) recent.push(e);
    const below = recent[0]?.id ?? Number.MAX_SAFE_INTEGER;
    const rows = (orderId === undefined
      ? this.#ofAccount.all(account, below)
      : this.#ofOrder.all(orderId, account, below)) as unknown as ExecutionTableRow[];
    const executions = rows.map(fromRow);
    for (const e of recent) executions.push(e);
    return executions;
  }
}
