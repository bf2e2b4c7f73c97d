import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit';
import { comparePeriods, type Period } from '../../core/period.ts';
import type { Standing } from '../../core/standing.ts';
import type { ArchiveStore } from '../../ports.ts';

interface StandingRow {
  user_id: string;
  score: number;
  rank: number;
}

/** Historical storage: the final standings of finished months, in node:sqlite. */
export class SqliteArchiveStore implements ArchiveStore {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #isArchived: StatementSync;
  readonly #byPosition: StatementSync;
  readonly #positionOf: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS archived_standings (
        period TEXT NOT NULL,
        position INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        score INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        PRIMARY KEY (period, position)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX IF NOT EXISTS archived_by_user ON archived_standings (period, user_id);
      CREATE TABLE IF NOT EXISTS archived_periods (
        period TEXT PRIMARY KEY,
        players INTEGER NOT NULL,
        archived_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `);
    this.#insert = db.prepare(
      'INSERT INTO archived_standings (period, position, user_id, score, rank) VALUES (?, ?, ?, ?, ?)',
    );
    this.#isArchived = db.prepare('SELECT 1 FROM archived_periods WHERE period = ?');
    this.#byPosition = db.prepare(
      'SELECT user_id, score, rank FROM archived_standings WHERE period = ? AND position >= ? ORDER BY position LIMIT ?',
    );
    this.#positionOf = db.prepare(
      'SELECT position, user_id, score, rank FROM archived_standings WHERE period = ? AND user_id = ?',
    );
  }

  /** The database belongs to the caller that opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  isArchived(period: Period): Promise<boolean> {
    return Promise.resolve(this.#isArchived.get(period) !== undefined);
  }

  async write(period: Period, standings: AsyncIterable<readonly Standing[]>): Promise<number> {
    // A previous attempt may have stopped half-way: start the month over.
    this.#db.prepare('DELETE FROM archived_standings WHERE period = ?').run(period);
    let position = 0;
    for await (const batch of standings) {
      transaction(this.#db, () => {
        for (const s of batch) this.#insert.run(period, position++, s.userId, s.score, s.rank);
      });
    }
    this.#db
      .prepare('INSERT OR REPLACE INTO archived_periods (period, players, archived_at) VALUES (?, ?, ?)')
      .run(period, position, Date.now());
    return position;
  }

  periods(): Promise<Period[]> {
    const rows = this.#db.prepare('SELECT period FROM archived_periods').all() as { period: string }[];
    return Promise.resolve(rows.map((row) => row.period).sort(comparePeriods));
  }

  delete(period: Period): Promise<void> {
    transaction(this.#db, () => {
      this.#db.prepare('DELETE FROM archived_periods WHERE period = ?').run(period);
      this.#db.prepare('DELETE FROM archived_standings WHERE period = ?').run(period);
    });
    return Promise.resolve();
  }

  standing(period: Period, userId: string): Promise<Standing | undefined> {
    const row = this.#positionOf.get(period, userId) as (StandingRow & { position: number }) | undefined;
    return Promise.resolve(row && toStanding(row));
  }

  top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    const rows = this.#byPosition.all(period, offset, limit) as unknown as StandingRow[];
    return Promise.resolve(rows.map(toStanding));
  }

  async around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    const row = this.#positionOf.get(period, userId) as { position: number } | undefined;
    if (row === undefined) return undefined;
    const from = Math.max(0, row.position - n);
    return this.top(period, from, row.position + n + 1 - from);
  }
}

function toStanding(row: StandingRow): Standing {
  return { userId: row.user_id, score: row.score, rank: row.rank };
}
