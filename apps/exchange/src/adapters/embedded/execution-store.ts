/**
 * The executions store in journal.db: a row per execution, inserted by the transaction of the
 * snapshot that followed it (held-records.ts), so a row is written once. The table is clustered
 * by what the reads ask (account, order, id) and has no other index: a snapshot's rows, sorted
 * that way, are inserted in one sweep over the b-tree instead of one random leaf per row in an
 * index by account (issue #12). Reads add the executions held in memory since the last stored
 * snapshot.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
import type { Execution } from '../../core/messages.ts';
import type { StoredExecution } from '../../ports.ts';
import type { ExecutionRow, Generation } from './held-records.ts';

const COLUMNS = 'id, seq, order_id, account, symbol, side, price, quantity, at, counter_order_id';

const TABLE = `(
  account TEXT NOT NULL,
  order_id INTEGER NOT NULL,
  id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  symbol TEXT NOT NULL,
  side TEXT NOT NULL,
  price INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  at INTEGER NOT NULL,
  counter_order_id INTEGER,
  PRIMARY KEY (account, order_id, id)
) WITHOUT ROWID`;

export function ensureExecutionStore(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS executions ${TABLE}`);
  // A journal from before: a table by id with an index by account and one by order.
  const old = () =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'executions_by_order'").get() !==
    undefined;
  if (!old()) return;
  // One transaction, once per journal: atomic (a crash leaves the old table whole), but a write
  // at that start as long as the executions stored so far, with a WAL of the table's size.
  transaction(db, () => {
    if (!old()) return; // another connection migrated it meanwhile
    db.exec(`
      ALTER TABLE executions RENAME TO executions_by_id;
      CREATE TABLE executions ${TABLE};
      INSERT INTO executions (${COLUMNS}) SELECT ${COLUMNS} FROM executions_by_id
        ORDER BY account, order_id, id;
      DROP TABLE executions_by_id;
    `);
  });
}

/**
 * The insert of a JSON array of ExecutionRows (many rows, one statement) for the snapshot's
 * transaction, sorted as the table is (storedRows).
 */
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
  readonly #all: StatementSync;

  constructor(db: DatabaseSync) {
    ensureExecutionStore(db);
    const select = 'SELECT id, seq, order_id, account, symbol, side, price, quantity, at FROM executions';
    // The account's range, sorted by id (it is by order): every row of it is returned anyway.
    this.#ofAccount = db.prepare(`${select} WHERE account = ? AND id < ? ORDER BY id`);
    this.#ofOrder = db.prepare(`${select} WHERE account = ? AND order_id = ? AND id < ? ORDER BY id`);
    // A sort of the whole table: for checks, not for the order path.
    this.#all = db.prepare(`SELECT ${COLUMNS} FROM executions ORDER BY id`);
    this.#all.setReturnArrays(true);
  }

  /** Every stored execution as an ExecutionRow, in id order (without a counter order where none was stored). */
  all(visit: (row: ExecutionRow) => void): void {
    for (const read of this.#all.iterate()) {
      const row = read as unknown as ExecutionRow | [...ExecutionRow, null];
      visit(row[9] === null ? (row.slice(0, 9) as ExecutionRow) : (row as ExecutionRow));
    }
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
      : this.#ofOrder.all(account, orderId, below)) as unknown as ExecutionTableRow[];
    const executions = rows.map(fromRow);
    for (const e of recent) executions.push(e);
    return executions;
  }
}
