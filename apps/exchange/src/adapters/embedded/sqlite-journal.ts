import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Command, Execution } from '../../core/messages.ts';
import type { Journal, StoredSnapshot } from '../../ports.ts';
import { decodeCommands, encodeCommand } from './command-codec.ts';

const READ_BATCH = 100;
/** Snapshots kept: the newest, and one before it in case the newest is unreadable. */
const SNAPSHOTS_KEPT = 2;

/** An execution as the journal stores it: [id, seq, orderId, account, symbol, side, price, quantity, at]. */
export type ExecutionRow = [number, number, number, string, string, string, number, number, number];

/**
 * The journal in node:sqlite, with group commit. Appends of one turn of the event loop form a
 * batch, held in order in memory and written at the end of the turn as ONE row (the commands
 * of seqs first_seq…last_seq, and the executions they produced) in one transaction: one
 * insert and one fsync for the whole batch, which is what lets a durable journal keep up with
 * hundreds of thousands of orders a second. `commit()` is one promise per batch; nothing of a
 * batch is answered before it resolves, and a process killed before the COMMIT loses the
 * batch whole, whose effects nobody was told about. (The model is the leaderboard's win log.)
 */
export class SqliteJournal implements Journal {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #read: StatementSync;
  readonly #insertSnapshot: StatementSync;
  readonly #pruneSnapshots: StatementSync;
  readonly #pruneWholeSnapshots: StatementSync;
  readonly #latestSnapshot: StatementSync;
  readonly #snapshotParts: StatementSync;
  readonly #wholeSnapshot: StatementSync;
  readonly #lastCommitted: StatementSync;
  #lastSeq: number;
  #commands: string[] = [];
  #executions: ExecutionRow[] = [];
  #snapshot: StoredSnapshot | undefined;
  #batch: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  #closed = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS journal (
        first_seq INTEGER PRIMARY KEY,
        last_seq INTEGER NOT NULL,
        commands TEXT NOT NULL,
        executions TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS snapshots (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS snapshot_parts (
        seq INTEGER NOT NULL,
        part INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (seq, part)
      );
    `);
    this.#insert = db.prepare(
      'INSERT INTO journal (first_seq, last_seq, commands, executions) VALUES (?, ?, ?, ?)',
    );
    this.#read = db.prepare(
      'SELECT first_seq, commands FROM journal WHERE last_seq > ? ORDER BY first_seq LIMIT ?',
    );
    // Snapshots are parts (snapshot_parts); `snapshots` holds those stored whole by older versions,
    // read as one part until newer ones replace them.
    this.#insertSnapshot = db.prepare(
      'INSERT OR REPLACE INTO snapshot_parts (seq, part, body) VALUES (?, ?, ?)',
    );
    this.#pruneSnapshots = db.prepare(`
      WITH kept AS (
        SELECT seq FROM (SELECT DISTINCT seq FROM snapshot_parts UNION SELECT seq FROM snapshots)
        ORDER BY seq DESC LIMIT ?
      )
      DELETE FROM snapshot_parts WHERE seq NOT IN (SELECT seq FROM kept)`);
    this.#pruneWholeSnapshots = db.prepare(`
      DELETE FROM snapshots WHERE seq NOT IN (
        SELECT seq FROM (SELECT DISTINCT seq FROM snapshot_parts UNION SELECT seq FROM snapshots)
        ORDER BY seq DESC LIMIT ?
      )`);
    this.#latestSnapshot = db.prepare(
      'SELECT (SELECT MAX(seq) FROM snapshot_parts) AS parts, (SELECT MAX(seq) FROM snapshots) AS whole',
    );
    this.#snapshotParts = db.prepare('SELECT body FROM snapshot_parts WHERE seq = ? ORDER BY part');
    this.#wholeSnapshot = db.prepare('SELECT body FROM snapshots WHERE seq = ?');
    this.#lastCommitted = db.prepare('SELECT COALESCE(MAX(last_seq), 0) AS seq FROM journal');
    this.#lastSeq = (this.#lastCommitted.get() as { seq: number }).seq;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  append(seq: number, command: Command): void {
    if (this.#closed) throw new Error('journal is closed');
    if (seq !== this.#lastSeq + 1) throw new RangeError(`journal: seq ${seq} after ${this.#lastSeq}`);
    this.#open();
    this.#commands.push(encodeCommand(command));
    this.#lastSeq = seq;
  }

  appendExecution(e: Execution): void {
    if (this.#closed) throw new Error('journal is closed');
    this.#open();
    this.#executions.push([e.id, e.seq, e.orderId, e.account, e.symbol, e.side, e.price, e.quantity, e.at]);
  }

  commit(): Promise<void> {
    return this.#batch?.promise ?? Promise.resolve();
  }

  replay(afterSeq: number, visit: (seq: number, command: Command) => void): void {
    let from = afterSeq;
    for (;;) {
      const rows = this.#read.all(from, READ_BATCH) as Array<{ first_seq: number; commands: string }>;
      for (const row of rows) {
        const commands = decodeCommands(row.commands);
        for (let i = 0; i < commands.length; i++) {
          const seq = row.first_seq + i;
          if (seq > from) visit(seq, commands[i]!);
        }
        from = Math.max(from, row.first_seq + commands.length - 1);
      }
      if (rows.length < READ_BATCH) return;
    }
  }

  /** Every journaled execution, in order (reports and the tests' exactly-once check read them). */
  executions(visit: (row: ExecutionRow) => void): void {
    for (const row of this.#db.prepare('SELECT executions FROM journal ORDER BY first_seq').iterate()) {
      for (const e of JSON.parse(row.executions as string) as ExecutionRow[]) visit(e);
    }
  }

  saveSnapshot(snapshot: StoredSnapshot): void {
    if (this.#closed) throw new Error('journal is closed');
    this.#open();
    this.#snapshot = snapshot;
  }

  latestSnapshot(): StoredSnapshot | undefined {
    const latest = this.#latestSnapshot.get() as { parts: number | null; whole: number | null };
    if (latest.whole !== null && (latest.parts === null || latest.whole > latest.parts)) {
      const row = this.#wholeSnapshot.get(latest.whole) as { body: string };
      return { seq: latest.whole, parts: [row.body] };
    }
    if (latest.parts === null) return undefined;
    const rows = this.#snapshotParts.all(latest.parts) as Array<{ body: string }>;
    return { seq: latest.parts, parts: rows.map((row) => row.body) };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.commit();
  }

  #open(): void {
    if (this.#batch !== undefined) return;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A waiter may come later or never: an unobserved failure must not end the process before
    // its owner sees it through commit().
    promise.catch(() => undefined);
    this.#batch = { promise, resolve, reject };
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    const batch = this.#batch!;
    const commands = this.#commands;
    const executions = this.#executions;
    const snapshot = this.#snapshot;
    this.#batch = undefined;
    this.#commands = [];
    this.#executions = [];
    this.#snapshot = undefined;
    const lastSeq = this.#lastSeq;
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      if (commands.length > 0) {
        this.#insert.run(
          lastSeq - commands.length + 1,
          lastSeq,
          commands.join(','),
          JSON.stringify(executions),
        );
      }
      if (snapshot !== undefined) {
        snapshot.parts.forEach((body, part) => this.#insertSnapshot.run(snapshot.seq, part, body));
        this.#pruneSnapshots.run(SNAPSHOTS_KEPT);
        this.#pruneWholeSnapshots.run(SNAPSHOTS_KEPT);
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      try {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        this.#lastSeq = (this.#lastCommitted.get() as { seq: number }).seq;
      } catch {
        // The connection is gone (closed under us): nothing more to undo here.
      }
      batch.reject(error);
      return;
    }
    batch.resolve();
  }
}
