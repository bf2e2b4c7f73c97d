import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult, WinLog } from '../../ports.ts';
import { REPLAY_QUERY, WinBatchWriter, type ReplayRow } from './win-batch-writer.ts';

const READ_BATCH = 10_000;

interface Pending {
  readonly win: NewWin;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The win log in node:sqlite, with group commit: appends that arrive in the same turn of the
 * event loop share one transaction (and so one fsync), which is what lets a durable log keep up
 * with thousands of wins a second. An append resolves only after its transaction committed.
 * The commit runs on the event loop; `WorkerWinLog` runs it on a worker thread instead.
 */
export class SqliteWinLog implements WinLog {
  readonly #writer: WinBatchWriter;
  readonly #reads: WinLogReads;
  #pending: Pending[] = [];
  #scheduled = false;
  #closed = false;

  constructor(db: DatabaseSync) {
    this.#writer = new WinBatchWriter(db);
    this.#reads = new WinLogReads(db);
  }

  append(win: NewWin): Promise<AppendResult> {
    if (this.#closed) return Promise.reject(new Error('win log is closed'));
    return new Promise((resolve, reject) => {
      this.#pending.push({ win, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    return this.#reads.read(period, afterSeq);
  }

  periods(): Promise<Period[]> {
    return Promise.resolve([...this.#writer.periods].sort());
  }

  lastSeq(period: Period): Promise<number> {
    return Promise.resolve(this.#reads.lastSeq(period));
  }

  /** Stops taking appends and waits for the pending ones to commit (the database stays open). */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#pending.length > 0 || this.#scheduled) await new Promise((resolve) => setImmediate(resolve));
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    let results: AppendResult[];
    try {
      results = this.#writer.write(batch.map((pending) => pending.win)).results;
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => pending.resolve(results[i]!));
  }
}

/** The read side of the win log, on any connection to wins.db (WAL: it sees every commit). */
export class WinLogReads {
  readonly #readPeriod: StatementSync;
  readonly #lastSeqOf: StatementSync;

  constructor(db: DatabaseSync) {
    this.#readPeriod = db.prepare(REPLAY_QUERY);
    this.#readPeriod.setReturnArrays(true);
    this.#lastSeqOf = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM wins WHERE period = ?');
  }

  async *read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    let from = afterSeq;
    for (;;) {
      const rows = this.#readPeriod.all(period, from, READ_BATCH) as unknown as ReplayRow[];
      if (rows.length === 0) return;
      const wins = new Array<Win>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const [seq, userId, points, matchId, at] = rows[i]!;
        wins[i] = { seq, period, userId, points, matchId: matchId ?? undefined, at };
      }
      yield wins;
      from = wins[wins.length - 1]!.seq;
      // Let requests in between batches of a long replay.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  lastSeq(period: Period): number {
    return (this.#lastSeqOf.get(period) as { seq: number }).seq;
  }
}
