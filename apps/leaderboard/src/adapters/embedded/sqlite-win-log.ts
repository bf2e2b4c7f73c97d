import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult, WinLog } from '../../ports.ts';

const READ_BATCH = 10_000;

interface Pending {
  readonly win: NewWin;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

interface WinRow {
  seq: number;
  period: string;
  user_id: string;
  points: number;
  match_id: string | null;
  at: number;
}

/**
 * The win log in node:sqlite, with group commit: appends that arrive in the same turn of the
 * event loop share one transaction (and so one fsync), which is what lets a durable log keep up
 * with thousands of wins a second. An append resolves only after its transaction committed.
 */
export class SqliteWinLog implements WinLog {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #byMatch: StatementSync;
  readonly #readPeriod: StatementSync;
  readonly #lastSeqOf: StatementSync;
  readonly #insertPeriod: StatementSync;
  readonly #knownPeriods: Set<Period>;
  #pending: Pending[] = [];
  #scheduled = false;
  #lastSeq: number;
  #closed = false;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS wins (
        seq INTEGER PRIMARY KEY,
        period TEXT NOT NULL,
        user_id TEXT NOT NULL,
        points INTEGER NOT NULL,
        match_id TEXT UNIQUE,
        at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS wins_by_period ON wins (period, seq);
      CREATE TABLE IF NOT EXISTS win_periods (period TEXT PRIMARY KEY) WITHOUT ROWID;
    `);
    this.#insert = db.prepare(
      'INSERT INTO wins (seq, period, user_id, points, match_id, at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING',
    );
    this.#byMatch = db.prepare('SELECT * FROM wins WHERE match_id = ?');
    this.#readPeriod = db.prepare('SELECT * FROM wins WHERE period = ? AND seq > ? ORDER BY seq LIMIT ?');
    this.#lastSeqOf = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM wins WHERE period = ?');
    this.#insertPeriod = db.prepare('INSERT OR IGNORE INTO win_periods (period) VALUES (?)');
    const last = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM wins').get() as { seq: number };
    this.#lastSeq = last.seq;
    const periods = db.prepare('SELECT period FROM win_periods').all() as Array<{ period: string }>;
    this.#knownPeriods = new Set(periods.map((row) => row.period));
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

  async *read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    let from = afterSeq;
    for (;;) {
      const rows = this.#readPeriod.all(period, from, READ_BATCH) as unknown as WinRow[];
      if (rows.length === 0) return;
      yield rows.map(toWin);
      from = rows[rows.length - 1]!.seq;
      // Let requests in between batches of a long replay.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  periods(): Promise<Period[]> {
    return Promise.resolve([...this.#knownPeriods].sort());
  }

  lastSeq(period: Period): Promise<number> {
    return Promise.resolve((this.#lastSeqOf.get(period) as { seq: number }).seq);
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
    const firstSeq = this.#lastSeq;
    const results: AppendResult[] = [];
    const newPeriods: Period[] = [];
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      for (const { win } of batch) {
        const seq = this.#lastSeq + 1;
        const change = this.#insert.run(seq, win.period, win.userId, win.points, win.matchId ?? null, win.at);
        if (change.changes === 0) {
          results.push({
            win: toWin(this.#byMatch.get(win.matchId ?? null) as unknown as WinRow),
            duplicate: true,
          });
          continue;
        }
        this.#lastSeq = seq;
        const recordedWin: Win = { ...win, seq };
        results.push({ win: recordedWin, duplicate: false });
        if (!this.#knownPeriods.has(win.period) && !newPeriods.includes(win.period)) {
          this.#insertPeriod.run(win.period);
          newPeriods.push(win.period);
        }
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      this.#lastSeq = firstSeq;
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const period of newPeriods) this.#knownPeriods.add(period);
    batch.forEach((pending, i) => pending.resolve(results[i]!));
  }
}

function toWin(row: WinRow): Win {
  return {
    seq: row.seq,
    period: row.period,
    userId: row.user_id,
    points: row.points,
    matchId: row.match_id ?? undefined,
    at: row.at,
  };
}
