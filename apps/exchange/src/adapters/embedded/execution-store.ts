/**
 * The executions store in journal.db: a row per execution, inserted by the journal's batch writer
 * in the transaction of the batch whose command made it, so the store and the journal can never
 * disagree (a batch lost to a crash loses its executions with it; a replay writes none). Reads
 * add the executions appended but not yet committed, so an answer never depends on whether its
 * batch has reached the disk yet.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { StoredExecution } from '../../ports.ts';

/**
 * An execution as the journal batch carries it:
 * [id, seq, orderId, account, symbol, side, price, quantity, at, counterOrderId]
 * (the counter order is absent from batches written before the store existed).
 */
export type ExecutionRow = [number, number, number, string, string, string, number, number, number, number?];

const COLUMNS = 'id, seq, order_id, account, symbol, side, price, quantity, at, counter_order_id';
const FROM_JSON = `SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6,
  value->>7, value->>8, value->>9 FROM json_each(?)`;

/**
 * Creates the table if it is missing; a journal written before it existed has its executions
 * copied in from the batches once (in one transaction with the creation).
 */
export function ensureExecutionStore(db: DatabaseSync): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'executions'").get();
  if (exists !== undefined) return;
  db.exec('BEGIN IMMEDIATE');
  try {
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
      INSERT OR IGNORE INTO executions (${COLUMNS})
        ${FROM_JSON.replace('json_each(?)', 'journal, json_each(journal.executions)')};
    `);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** The insert of a batch's executions (its JSON array of ExecutionRows), for the batch writer. */
export const insertExecutions = (db: DatabaseSync): StatementSync =>
  db.prepare(`INSERT INTO executions (${COLUMNS}) ${FROM_JSON}`);

interface Row {
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

const fromRow = (r: Row): StoredExecution => ({
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

const fromBatch = (e: ExecutionRow): StoredExecution => ({
  id: e[0],
  orderId: e[2],
  account: e[3],
  symbol: e[4],
  side: e[5] as 'buy' | 'sell',
  price: e[6],
  orderType: 'limit',
  quantity: e[7],
  at: e[8],
  seq: e[1],
});

export class ExecutionStoreReads {
  readonly #top: StatementSync;
  readonly #ofAccount: StatementSync;
  readonly #ofOrder: StatementSync;

  constructor(db: DatabaseSync) {
    ensureExecutionStore(db);
    const select = 'SELECT id, seq, order_id, account, symbol, side, price, quantity, at FROM executions';
    this.#top = db.prepare('SELECT COALESCE(MAX(id), 0) AS top FROM executions');
    this.#ofAccount = db.prepare(`${select} WHERE account = ? AND id <= ? ORDER BY id`);
    this.#ofOrder = db.prepare(`${select} WHERE order_id = ? AND account = ? AND id <= ? ORDER BY id`);
  }

  /**
   * The account's executions (of one order) committed, then those of `unwritten` (appended, not
   * yet committed, in id order) above the highest committed id: a batch committed by another
   * connection while still listed as unwritten is read once.
   */
  executionsOf(
    account: string,
    orderId: number | undefined,
    unwritten: Iterable<ExecutionRow>,
  ): StoredExecution[] {
    const { top } = this.#top.get() as { top: number };
    const rows = (orderId === undefined
      ? this.#ofAccount.all(account, top)
      : this.#ofOrder.all(orderId, account, top)) as unknown as Row[];
    const executions = rows.map(fromRow);
    for (const e of unwritten) {
      if (e[0] > top && e[3] === account && (orderId === undefined || e[2] === orderId))
        executions.push(fromBatch(e));
    }
    return executions;
  }
}
