import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult } from '../../ports.ts';
import { PlayerSketch, placed, place, RAISE_REGISTER, SKETCH_SCHEMA } from './player-sketch.ts';

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
 * Parameters: ?1 the period, ?2 the seq to read after, ?3 how many rows at most. The period's
 * seq range (`win_periods`) bounds a scan of the table's own seq order: no index per win.
 * Prepare it with `setReturnArrays(true)`; its rows are `ReplayRow`s.
 */
export const REPLAY_QUERY = `SELECT seq, user_id, points, match_id, at FROM wins
  WHERE seq > MAX(?2, (SELECT first_seq - 1 FROM win_periods WHERE period = ?1))
    AND seq <= (SELECT last_seq FROM win_periods WHERE period = ?1)
    AND period = ?1
  ORDER BY seq LIMIT ?3`;

/** The last seq of a period (0 when it has no win). Parameter: the period. */
export const LAST_SEQ_QUERY =
  'SELECT COALESCE((SELECT last_seq FROM win_periods WHERE period = ?), 0) AS seq';

/** A row of REPLAY_QUERY: seq, user_id, points, match_id, at. */
export type ReplayRow = [number, string, number, string | null, number];

/**
 * Creates the win log's tables if they are missing, and brings a log made by older code up to
 * date (idempotent; any connection may call it).
 *
 * Match ids are unique through a partial index, over the wins that carry one: a UNIQUE column
 * would index every win, a NULL key each for those without, one more b-tree written per row.
 * A log created before keeps its UNIQUE column, which refuses the same duplicates.
 *
 * A period's wins are found through its seq range in `win_periods` (first and last seq, kept by
 * the writer in each batch's transaction), not through an index on (period, seq), one more
 * b-tree written per win. Where that index exists (a log made by older code, which also did not
 * keep the ranges, or touched by it again), the ranges are computed from it and it is dropped.
 */
export function ensureWinSchema(db: DatabaseSync): void {
  // One transaction: the check and the creation are one step for connections opening together.
  transaction(db, () => {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wins'").get();
    if (exists === undefined) {
      db.exec(`
        CREATE TABLE wins (
          seq INTEGER PRIMARY KEY,
          period TEXT NOT NULL,
          user_id TEXT NOT NULL,
          points INTEGER NOT NULL,
          match_id TEXT,
          at INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX wins_by_match ON wins (match_id) WHERE match_id IS NOT NULL;
      `);
    }
    // Defaults, so that older code, which inserts the period alone, still can.
    db.exec(`
      CREATE TABLE IF NOT EXISTS win_periods (
        period TEXT PRIMARY KEY,
        first_seq INTEGER NOT NULL DEFAULT 0,
        last_seq INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;
    `);
    // A log made by older code has no sketch of the wins before: its estimate is low (see
    // PlayerSketch), which costs a replay time, not a result.
    db.exec(SKETCH_SCHEMA);
    const columns = db.prepare("SELECT name FROM pragma_table_info('win_periods')").all();
    if (!columns.some((column) => column['name'] === 'last_seq')) {
      db.exec(`
        ALTER TABLE win_periods ADD COLUMN first_seq INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE win_periods ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0;
      `);
    }
    const indexed = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'wins_by_period'")
      .get();
    if (indexed !== undefined) {
      // Each MIN and MAX is one lookup in the index; every period with a win has a row here.
      db.exec(`
        UPDATE win_periods SET
          first_seq = COALESCE((SELECT MIN(seq) FROM wins WHERE period = win_periods.period), 0),
          last_seq = COALESCE((SELECT MAX(seq) FROM wins WHERE period = win_periods.period), 0);
        DROP INDEX wins_by_period;
      `);
    }
  });
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

/** Rows per INSERT: one statement per batch of up to this many wins (6 parameters a row). */
const ROWS_PER_INSERT = 64;

/**
 * The write side of the win log: a batch of wins in one transaction (one commit; the group
 * commit's fdatasync makes it durable), each with the next seq, a known match id answered with its
 * original win. The one writer of a wins.db owns one of these: `GroupCommitWinLog`, on the event
 * loop (and tests); synchronous, so nothing slips into its transaction.
 *
 * The new wins of a batch go in multi-row INSERTs: a statement per row cost about twice the CPU
 * of the insert itself. Match ids are looked up first (only wins that carry one), so the inserts
 * need no conflict clause: a match id recorded before, or earlier in the same batch, answers with
 * that win and appends nothing.
 */
export class WinBatchWriter {
  readonly #db: DatabaseSync;
  /** INSERT statements by row count, prepared on first use. */
  readonly #inserts = new Map<number, StatementSync>();
  readonly #byMatch: StatementSync;
  readonly #savePeriod: StatementSync;
  readonly #knownPeriods: Set<Period>;
  readonly #raise: StatementSync;
  /** Each period's sketch of its players, read from the log when first written to. */
  readonly #sketches = new Map<Period, PlayerSketch>();
  #lastSeq: number;

  constructor(db: DatabaseSync) {
    this.#db = db;
    ensureWinSchema(db);
    this.#byMatch = db.prepare('SELECT * FROM wins WHERE match_id = ?');
    // A batch's seqs come after every seq before: its last is the period's last.
    this.#savePeriod = db.prepare(
      'INSERT INTO win_periods (period, first_seq, last_seq) VALUES (?, ?, ?) ON CONFLICT (period) DO UPDATE SET last_seq = excluded.last_seq',
    );
    this.#raise = db.prepare(RAISE_REGISTER);
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
    /** [sketch, register, rank before] of every register this batch raised: put back on a rollback. */
    const raised: Array<[PlayerSketch, number, number]> = [];
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      const fresh: Win[] = [];
      const inBatch = new Map<string, Win>();
      /** Per period: the first and last seq this batch gives it. */
      const ranges = new Map<Period, [number, number]>();
      for (const win of wins) {
        const original = win.matchId === undefined ? undefined : this.#original(win.matchId, inBatch);
        if (original !== undefined) {
          results.push({ win: original, duplicate: true });
          continue;
        }
        // A literal of the Win's own shape: a spread copies key by key into an object that then
        // changes shape when seq is added.
        const recorded: Win = {
          period: win.period,
          userId: win.userId,
          points: win.points,
          matchId: win.matchId,
          at: win.at,
          seq: ++this.#lastSeq,
        };
        if (win.matchId !== undefined) inBatch.set(win.matchId, recorded);
        fresh.push(recorded);
        results.push({ win: recorded, duplicate: false });
        if (!this.#knownPeriods.has(win.period) && !newPeriods.includes(win.period)) {
          newPeriods.push(win.period);
        }
        const range = ranges.get(win.period);
        if (range === undefined) ranges.set(win.period, [recorded.seq, recorded.seq]);
        else range[1] = recorded.seq;
      }
      for (const [period, [first, last]] of ranges) this.#savePeriod.run(period, first, last);
      for (const win of fresh) this.#count(win, raised);
      for (let start = 0; start < fresh.length; start += ROWS_PER_INSERT) {
        this.#insertRows(fresh, start, Math.min(fresh.length, start + ROWS_PER_INSERT));
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      this.#lastSeq = firstSeq;
      for (let i = raised.length - 1; i >= 0; i--) {
        const [sketch, register, rank] = raised[i]!;
        sketch.registers[register] = rank;
      }
      throw error;
    }
    for (const period of newPeriods) this.#knownPeriods.add(period);
    return { results, newPeriods };
  }

  /** Counts the win's player in its period's sketch; a register raised is saved with the batch. */
  #count(win: Win, raised: Array<[PlayerSketch, number, number]>): void {
    let sketch = this.#sketches.get(win.period);
    if (sketch === undefined) {
      sketch = PlayerSketch.read(this.#db, win.period);
      this.#sketches.set(win.period, sketch);
    }
    place(win.userId);
    const { register, rank } = placed;
    const before = sketch.registers[register]!;
    if (rank <= before) return;
    sketch.registers[register] = rank;
    raised.push([sketch, register, before]);
    this.#raise.run(win.period, register, rank);
  }

  /** The win first recorded with `matchId`: earlier in this batch, or in the log. */
  #original(matchId: string, inBatch: ReadonlyMap<string, Win>): Win | undefined {
    const row = this.#byMatch.get(matchId) as WinRow | undefined;
    return row === undefined ? inBatch.get(matchId) : toWin(row);
  }

  #insertRows(wins: readonly Win[], from: number, to: number): void {
    const count = to - from;
    let insert = this.#inserts.get(count);
    if (insert === undefined) {
      const rows = Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      insert = this.#db.prepare(
        `INSERT INTO wins (seq, period, user_id, points, match_id, at) VALUES ${rows}`,
      );
      this.#inserts.set(count, insert);
    }
    const values = new Array<string | number | null>(count * 6);
    for (let i = from, k = 0; i < to; i++) {
      const win = wins[i]!;
      values[k++] = win.seq;
      values[k++] = win.period;
      values[k++] = win.userId;
      values[k++] = win.points;
      values[k++] = win.matchId ?? null;
      values[k++] = win.at;
    }
    insert.run(...values);
  }
}
