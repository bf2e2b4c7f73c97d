import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
import type { Period } from '../../core/period.ts';
import { Ranking } from '../../core/ranking.ts';
import type { TieBreak } from '../../core/standing.ts';

/** A chunk of saved entries, in columns (cheap to pass to the checkpoint worker). */
export interface CheckpointChunk {
  readonly userIds: readonly string[];
  readonly scores: Float64Array;
  readonly seqs: Float64Array;
}

interface EntryRow {
  user_id: string;
  score: number;
  seq: number;
}

/**
 * Saved copies of the live rankings, so that a restart replays only the wins recorded after the
 * last checkpoint instead of the whole month. The table access; `CheckpointWriter` decides what
 * is written when, from a worker thread.
 */
export class SqliteRankingCheckpoints {
  readonly #db: DatabaseSync;
  readonly #upsert: StatementSync;
  readonly #saveState: StatementSync;
  readonly #stateOf: StatementSync;
  readonly #countOf: StatementSync;
  readonly #entriesOf: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS ranking_entries (
        period TEXT NOT NULL,
        user_id TEXT NOT NULL,
        score INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (period, user_id)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS ranking_checkpoints (
        period TEXT PRIMARY KEY,
        applied_seq INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
    this.#upsert = db.prepare(
      'INSERT INTO ranking_entries (period, user_id, score, seq) VALUES (?, ?, ?, ?) ON CONFLICT (period, user_id) DO UPDATE SET score = excluded.score, seq = excluded.seq',
    );
    this.#saveState = db.prepare(
      'INSERT INTO ranking_checkpoints (period, applied_seq) VALUES (?, ?) ON CONFLICT (period) DO UPDATE SET applied_seq = excluded.applied_seq',
    );
    this.#stateOf = db.prepare('SELECT applied_seq FROM ranking_checkpoints WHERE period = ?');
    this.#countOf = db.prepare('SELECT count(*) AS n FROM ranking_entries WHERE period = ?');
    this.#entriesOf = db.prepare('SELECT user_id, score, seq FROM ranking_entries WHERE period = ?');
  }

  /**
   * Writes saved entries (one chunk of a checkpoint) into the checkpoint's transaction, opening it
   * with the first chunk: `markCovered` commits the whole checkpoint, `abandon` drops it, so a
   * checkpoint that fails halfway leaves the previous one whole (and one commit per checkpoint,
   * instead of one per chunk, costs less per entry). A chunk that fails drops the whole checkpoint.
   * The price: the transaction stays open across the worker's pauses between chunks, so the WAL
   * holds the whole checkpoint until its commit (only this thread writes ranking.db).
   * In key order: the players changed come in the order they were first changed, and upserting
   * them so meant a leaf page of the table fetched and dirtied per player; sorted, neighbours
   * share pages.
   */
  writeEntries(period: Period, entries: CheckpointChunk): void {
    const { userIds, scores, seqs } = entries;
    const order = Uint32Array.from(userIds.keys()).sort((a, b) => compareKeys(userIds[a]!, userIds[b]!));
    if (!this.#db.isTransaction) this.#db.exec('BEGIN IMMEDIATE');
    try {
      for (const i of order) this.#upsert.run(period, userIds[i]!, scores[i]!, seqs[i]!);
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /**
   * Records that the saved entries now hold every win of `period` up to `seq`, and commits the
   * checkpoint with the entries written since the last commit.
   */
  markCovered(period: Period, seq: number): void {
    if (!this.#db.isTransaction) this.#db.exec('BEGIN IMMEDIATE');
    try {
      this.#saveState.run(period, seq);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  /** Drops the entries written since the last commit: the previous checkpoint stays whole. */
  abandon(): void {
    if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
  }

  /** Periods that have a checkpoint. */
  periods(): Period[] {
    const rows = this.#db.prepare('SELECT period FROM ranking_checkpoints ORDER BY period').all();
    return rows.map((row) => String(row['period']));
  }

  /** Seq covered by the period's checkpoint, or undefined when there is none. */
  appliedSeq(period: Period): number | undefined {
    const row = this.#stateOf.get(period) as { applied_seq: number } | undefined;
    return row?.applied_seq;
  }

  /** Rebuilds the ranking saved for `period` (empty at seq 0 when none was saved). */
  load(period: Period, tieBreak: TieBreak): Ranking {
    const ranking = new Ranking(tieBreak);
    const appliedSeq = this.appliedSeq(period);
    if (appliedSeq === undefined) return ranking;
    // Sized once for every saved player: the restore then neither rehashes the id table nor
    // copies a column as it grows. Counting the period's range of the primary key costs about
    // 4 % of reading it (0.1 s against 2.1–3.1 s of CPU at 2,000,000 entries, load 2–7).
    ranking.reserve((this.#countOf.get(period) as { n: number }).n);
    for (const row of this.#entriesOf.iterate(period) as IterableIterator<EntryRow>) {
      ranking.restore({ userId: row.user_id, score: row.score, seq: row.seq });
    }
    ranking.restoredUpTo(appliedSeq);
    return ranking;
  }

  discard(period: Period): void {
    transaction(this.#db, () => {
      this.#db.prepare('DELETE FROM ranking_entries WHERE period = ?').run(period);
      this.#db.prepare('DELETE FROM ranking_checkpoints WHERE period = ?').run(period);
    });
  }
}

/** SQLite's order for TEXT under the default BINARY collation (UTF-8 bytes; ids are ASCII). */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
