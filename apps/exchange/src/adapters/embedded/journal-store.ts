/**
 * The journal's tables in node:sqlite, and the two sides of them: `JournalReads` (replay,
 * snapshots, executions: any connection) and `JournalBatchWriter` (one batch, one transaction:
 * the one writer's, on whichever thread it runs). The group-commit front ends (SqliteJournal on
 * the event loop, WorkerJournal with a writer thread) decide when a batch is written.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Command, Order } from '../../core/messages.ts';
import type { FinishedQuery, StoredExecution, StoredSnapshot } from '../../ports.ts';
import { decodeCommands } from './command-codec.ts';
import { ensureExecutionStore, ExecutionStoreReads, insertExecutions } from './execution-store.ts';
import {
  ensureFinishedOrderStore,
  FinishedOrderReads,
  finishedOrderInserts,
  type FinishedOrderInserts,
} from './finished-order-store.ts';
import { executionRow, type ExecutionRow, type Generation, type StoredRows } from './held-records.ts';

export type { ExecutionRow };

const READ_BATCH = 100;
/** The journal rows' executions column from now on: an empty list, which older versions still read. */
const NO_EXECUTIONS = `'[]'`;
/** Snapshots kept: the newest, and one before it in case the newest is unreadable. */
const SNAPSHOTS_KEPT = 2;

/**
 * What one group commit writes: the commands of seqs firstSeq…lastSeq, maybe a snapshot. Their
 * executions are not in it: a replay derives them again, and the snapshot stores them.
 */
export interface JournalBatch {
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** The encoded commands, comma-separated (command-codec.ts); empty when the batch has none. */
  readonly commands: string;
  readonly snapshot?: StoredSnapshot;
  /** With a snapshot: the executions and finished orders up to it, inserted in its transaction. */
  readonly stored?: StoredRows;
}

/** Creates the journal's tables if they are missing (idempotent; any connection may call it). */
export function ensureJournalSchema(db: DatabaseSync): void {
  // `executions`: each batch's executions as JSON, written by versions before (nothing reads it
  // now: the executions table and a replay have them); newer rows hold NO_EXECUTIONS.
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
  ensureExecutionStore(db);
  ensureFinishedOrderStore(db);
}

export class JournalReads {
  readonly #read: StatementSync;
  readonly #latestSnapshot: StatementSync;
  readonly #snapshotParts: StatementSync;
  readonly #wholeSnapshot: StatementSync;
  readonly #lastCommitted: StatementSync;
  readonly #executions: ExecutionStoreReads;
  readonly #finished: FinishedOrderReads;

  constructor(db: DatabaseSync) {
    ensureJournalSchema(db);
    this.#executions = new ExecutionStoreReads(db);
    this.#finished = new FinishedOrderReads(db);
    this.#read = db.prepare(
      'SELECT first_seq, commands FROM journal WHERE last_seq > ? ORDER BY first_seq LIMIT ?',
    );
    // Snapshots are parts (snapshot_parts); `snapshots` holds those stored whole by older versions,
    // read as one part until newer ones replace them.
    this.#latestSnapshot = db.prepare(
      'SELECT (SELECT MAX(seq) FROM snapshot_parts) AS parts, (SELECT MAX(seq) FROM snapshots) AS whole',
    );
    this.#snapshotParts = db.prepare('SELECT body FROM snapshot_parts WHERE seq = ? ORDER BY part');
    this.#wholeSnapshot = db.prepare('SELECT body FROM snapshots WHERE seq = ?');
    this.#lastCommitted = db.prepare('SELECT COALESCE(MAX(last_seq), 0) AS seq FROM journal');
  }

  /** The last seq committed. */
  lastCommitted(): number {
    return (this.#lastCommitted.get() as { seq: number }).seq;
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

  /**
   * Every execution, stored (in id order) then `held`, in the order they are held: the tests'
   * exactly-once check reads them (an execution both stored and held would be visited twice).
   */
  executions(visit: (row: ExecutionRow) => void, held: readonly Generation[]): void {
    this.#executions.all(visit);
    for (const generation of held) for (const e of generation.executions) visit(executionRow(e));
  }

  /** The account's executions (of one order), stored and `held` (see ExecutionStoreReads). */
  executionsOf(account: string, orderId: number | undefined, held: readonly Generation[]): StoredExecution[] {
    return this.#executions.executionsOf(account, orderId, held);
  }

  /** The finished orders, stored and `held` (see FinishedOrderReads). */
  finishedOrder(id: number, held: readonly Generation[]): Order | undefined {
    return this.#finished.order(id, held);
  }

  finishedOrders(account: string, query: FinishedQuery, held: readonly Generation[]): Order[] {
    return this.#finished.page(account, query, held);
  }

  hasFinishedAfter(account: string, after: number, held: readonly Generation[]): boolean {
    return this.#finished.anyAfter(account, after, held);
  }

  finishedByClientId(account: string, clientOrderId: string, held: readonly Generation[]): Order[] {
    return this.#finished.byClientId(account, clientOrderId, held);
  }

  finishedClientIdsFrom(from: (creationTime: number) => boolean): Array<[string, string]> {
    return this.#finished.clientIdsFrom(from);
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
}

/** Writes batches, each in one transaction (one COMMIT, one fsync under synchronous=full). */
export class JournalBatchWriter {
  readonly #db: DatabaseSync;
  // Prepared once: `exec` would parse the SQL again at every group commit.
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #insert: StatementSync;
  readonly #insertExecutions: StatementSync;
  readonly #insertFinished: FinishedOrderInserts;
  readonly #insertPart: StatementSync;
  readonly #pruneParts: StatementSync;
  readonly #pruneWhole: StatementSync;

  constructor(db: DatabaseSync) {
    ensureJournalSchema(db);
    this.#db = db;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#insert = db.prepare(
      `INSERT INTO journal (first_seq, last_seq, commands, executions) VALUES (?, ?, ?, ${NO_EXECUTIONS})`,
    );
    this.#insertExecutions = insertExecutions(db);
    this.#insertFinished = finishedOrderInserts(db);
    this.#insertPart = db.prepare('INSERT OR REPLACE INTO snapshot_parts (seq, part, body) VALUES (?, ?, ?)');
    const kept = `SELECT seq FROM (SELECT DISTINCT seq FROM snapshot_parts UNION SELECT seq FROM snapshots)
      ORDER BY seq DESC LIMIT ${SNAPSHOTS_KEPT}`;
    this.#pruneParts = db.prepare(`DELETE FROM snapshot_parts WHERE seq NOT IN (${kept})`);
    this.#pruneWhole = db.prepare(`DELETE FROM snapshots WHERE seq NOT IN (${kept})`);
  }

  /** Commits the batch, or throws having rolled it back. */
  write(batch: JournalBatch): void {
    try {
      this.#begin.run();
      if (batch.commands.length > 0) {
        this.#insert.run(batch.firstSeq, batch.lastSeq, batch.commands);
      }
      const { snapshot, stored } = batch;
      if (snapshot !== undefined) {
        // With the snapshot's parts: a restart from it finds them here, one from before derives them again.
        for (const rows of stored?.executions ?? []) this.#insertExecutions.run(rows);
        for (const rows of stored?.orders ?? []) this.#insertFinished.orders.run(rows);
        for (const rows of stored?.ordersByAccount ?? []) this.#insertFinished.byAccount.run(rows);
        for (const rows of stored?.ordersByClientId ?? []) this.#insertFinished.byClientId.run(rows);
        snapshot.parts.forEach((body, part) => this.#insertPart.run(snapshot.seq, part, body));
        this.#pruneParts.run();
        this.#pruneWhole.run();
      }
      this.#commit.run();
    } catch (error) {
      try {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      } catch {
        // The connection is gone (closed under us): nothing more to undo here.
      }
      throw error;
    }
  }
}
