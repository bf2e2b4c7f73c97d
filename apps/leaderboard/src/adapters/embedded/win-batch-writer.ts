import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult } from '../../ports.ts';

export interface WinRow {
  seq: number;
  period: string;
  user_id: string;
  points: number;
  match_id: string | null;
  at: number;
}

/**
 * A period's wins after a seq, in seq order, as arrays of the columns a Win needs (the period is
 * the one asked for): a replay reads millions, and named rows of every column cost a third more.
 * Prepare it with `setReturnArrays(true)`; its rows are `ReplayRow`s.
 */
export const REPLAY_QUERY =
  'SELECT seq, user_id, points, match_id, at FROM wins WHERE period = ? AND seq > ? ORDER BY seq LIMIT ?';

/** A row of REPLAY_QUERY: seq, user_id, points, match_id, at. */
export type ReplayRow = [number, string, number, string | null, number];

/** Creates the win log's tables if they are missing (idempotent; any connection may call it). */
export function ensureWinSchema(db: DatabaseSync): void {
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
}

export function toWin(row: WinRow): Win {
  return {
    seq: row.seq,
    period: row.period,
    userId: row.user_id,
    points: row.points,
    matchId: row.match_id ?? undefined,
    at: row.at,
  };
}

/** What one committed batch gives back, in the order of its wins. */
export interface WrittenBatch {
  readonly results: AppendResult[];
  /** Periods that had no win before this batch. */
  readonly newPeriods: Period[];
}

/**
 * The write side of the win log: a batch of wins in one transaction (one commit, one fsync),
 * each with the next seq, a known match id answered with its original win. The one writer of a
 * wins.db owns one of these, on whichever thread it runs (the event loop in `SqliteWinLog`, a
 * worker in `WorkerWinLog`); synchronous, so nothing slips into its transaction.
 */
export class WinBatchWriter {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #byMatch: StatementSync;
  readonly #insertPeriod: StatementSync;
  readonly #knownPeriods: Set<Period>;
  #lastSeq: number;

  constructor(db: DatabaseSync) {
    this.#db = db;
    ensureWinSchema(db);
    this.#insert = db.prepare(
      'INSERT INTO wins (seq, period, user_id, points, match_id, at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING',
    );
    this.#byMatch = db.prepare('SELECT * FROM wins WHERE match_id = ?');
    this.#insertPeriod = db.prepare('INSERT OR IGNORE INTO win_periods (period) VALUES (?)');
    const last = db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM wins').get() as { seq: number };
    this.#lastSeq = last.seq;
    const periods = db.prepare('SELECT period FROM win_periods').all() as Array<{ period: string }>;
    this.#knownPeriods = new Set(periods.map((row) => row.period));
  }

  /** Periods with wins, as this writer knows them (it is the only writer). */
  get periods(): ReadonlySet<Period> {
    return this.#knownPeriods;
  }

  /** Commits the batch, or throws having rolled it back (and reused no seq). */
  write(wins: readonly NewWin[]): WrittenBatch {
    const firstSeq = this.#lastSeq;
    const results: AppendResult[] = [];
    const newPeriods: Period[] = [];
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      for (const win of wins) {
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
        results.push({ win: { ...win, seq }, duplicate: false });
        if (!this.#knownPeriods.has(win.period) && !newPeriods.includes(win.period)) {
          this.#insertPeriod.run(win.period);
          newPeriods.push(win.period);
        }
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      this.#lastSeq = firstSeq;
      throw error;
    }
    for (const period of newPeriods) this.#knownPeriods.add(period);
    return { results, newPeriods };
  }
}
