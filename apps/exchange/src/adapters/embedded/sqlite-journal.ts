import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Command, Execution } from '../../core/messages.ts';
import type { Journal, StoredSnapshot } from '../../ports.ts';

const READ_BATCH = 10_000;
/** Snapshots kept: the newest, and one before it in case the newest is unreadable. */
const SNAPSHOTS_KEPT = 2;

/**
 * The journal in node:sqlite, with group commit (the model is the leaderboard's win log): the
 * first append of a turn of the event loop opens a transaction, every append of that turn is
 * written into it at once (so a command is in the journal before it is applied), and one COMMIT
 * (one fsync) at the end of the turn makes them all durable. `commit()` is one promise per batch.
 * A process killed before the COMMIT loses the batch, whose effects nobody was told about.
 */
export class SqliteJournal implements Journal {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #insertExecution: StatementSync;
  readonly #read: StatementSync;
  readonly #insertSnapshot: StatementSync;
  readonly #pruneSnapshots: StatementSync;
  readonly #latestSnapshot: StatementSync;
  #lastSeq: number;
  #batch: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  #closed = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, command TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS executions (
        id INTEGER PRIMARY KEY,
        seq INTEGER NOT NULL,
        order_id INTEGER NOT NULL,
        account TEXT NOT NULL,
        symbol TEXT NOT NULL,
        side TEXT NOT NULL,
        price INTEGER NOT NULL,
        quantity INTEGER NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS snapshots (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
    `);
    this.#insert = db.prepare('INSERT INTO journal (seq, command) VALUES (?, ?)');
    this.#insertExecution = db.prepare(
      'INSERT INTO executions (id, seq, order_id, account, symbol, side, price, quantity, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.#read = db.prepare('SELECT seq, command FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
    this.#insertSnapshot = db.prepare('INSERT OR REPLACE INTO snapshots (seq, body) VALUES (?, ?)');
    this.#pruneSnapshots = db.prepare(
      'DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)',
    );
    this.#latestSnapshot = db.prepare('SELECT seq, body FROM snapshots ORDER BY seq DESC LIMIT 1');
    this.#lastSeq = (
      db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM journal').get() as { seq: number }
    ).seq;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  append(seq: number, command: Command): void {
    if (seq !== this.#lastSeq + 1) throw new RangeError(`journal: seq ${seq} after ${this.#lastSeq}`);
    this.#open();
    this.#insert.run(seq, JSON.stringify(command));
    this.#lastSeq = seq;
  }

  appendExecution(e: Execution): void {
    this.#open();
    this.#insertExecution.run(e.id, e.seq, e.orderId, e.account, e.symbol, e.side, e.price, e.quantity, e.at);
  }

  commit(): Promise<void> {
    return this.#batch?.promise ?? Promise.resolve();
  }

  replay(afterSeq: number, visit: (seq: number, command: Command) => void): void {
    let from = afterSeq;
    for (;;) {
      const rows = this.#read.all(from, READ_BATCH) as Array<{ seq: number; command: string }>;
      for (const row of rows) visit(row.seq, JSON.parse(row.command) as Command);
      if (rows.length < READ_BATCH) return;
      from = rows[rows.length - 1]!.seq;
    }
  }

  saveSnapshot(snapshot: StoredSnapshot): void {
    this.#open();
    this.#insertSnapshot.run(snapshot.seq, snapshot.body);
    this.#pruneSnapshots.run(SNAPSHOTS_KEPT);
  }

  latestSnapshot(): StoredSnapshot | undefined {
    return this.#latestSnapshot.get() as StoredSnapshot | undefined;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.commit();
  }

  #open(): void {
    if (this.#closed) throw new Error('journal is closed');
    if (this.#batch !== undefined) return;
    this.#db.exec('BEGIN IMMEDIATE');
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A waiter may come later (or never, during a replay's own writes); an unobserved failure
    // must not crash the process before the owner sees it through commit().
    promise.catch(() => undefined);
    this.#batch = { promise, resolve, reject };
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    const batch = this.#batch!;
    this.#batch = undefined;
    try {
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      this.#lastSeq = (
        this.#db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM journal').get() as { seq: number }
      ).seq;
      batch.reject(error);
      return;
    }
    batch.resolve();
  }
}
