import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit';
import t, { type Test } from 'tap';
import { ThreadedWinLogReads } from '../../src/adapters/embedded/threaded-win-log-reads.ts';
import { WinBatchWriter, ensureWinSchema } from '../../src/adapters/embedded/win-batch-writer.ts';
import { WinLogReads } from '../../src/adapters/embedded/win-log-reads.ts';
import type { Win } from '../../src/core/win.ts';
import { tempDataDir } from '../helpers/app.ts';

// The schema as the code before session 14 made it: an index on (period, seq), periods alone.
const OLD_SCHEMA = `
  CREATE TABLE wins (seq INTEGER PRIMARY KEY, period TEXT NOT NULL, user_id TEXT NOT NULL,
    points INTEGER NOT NULL, match_id TEXT, at INTEGER NOT NULL);
  CREATE UNIQUE INDEX wins_by_match ON wins (match_id) WHERE match_id IS NOT NULL;
  CREATE INDEX IF NOT EXISTS wins_by_period ON wins (period, seq);
  CREATE TABLE IF NOT EXISTS win_periods (period TEXT PRIMARY KEY) WITHOUT ROWID;
`;

/** Appends as the older code did: the rows, and the period alone in win_periods. */
function oldAppend(db: DatabaseSync, wins: readonly Win[]): void {
  const insert = db.prepare(
    'INSERT INTO wins (seq, period, user_id, points, match_id, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const period = db.prepare('INSERT OR IGNORE INTO win_periods (period) VALUES (?)');
  for (const w of wins) {
    insert.run(w.seq, w.period, w.userId, w.points, w.matchId ?? null, w.at);
    period.run(w.period);
  }
}

/** Wins of three periods, interleaved where one month ends and the next begins. */
function winsFrom(first: number, count: number, periods: readonly string[]): Win[] {
  return Array.from({ length: count }, (_, i) => ({
    seq: first + i,
    period: periods[(i * 7) % periods.length]!,
    userId: `u${(first + i) % 13}`,
    points: 1 + (i % 5),
    matchId: i % 4 === 0 ? `m${first + i}` : undefined,
    at: 1_000 + first + i,
  }));
}

async function readAll(
  reads: { read(period: string, after: number): AsyncIterable<readonly Win[]> },
  period: string,
  after: number,
) {
  const wins: Win[] = [];
  for await (const batch of reads.read(period, after)) wins.push(...batch);
  return wins;
}

async function checkReads(t: Test, file: string, db: DatabaseSync, all: readonly Win[]): Promise<void> {
  const reads = new WinLogReads(db);
  const threaded = new ThreadedWinLogReads(file, 7);
  for (const period of new Set(all.map((w) => w.period))) {
    const mine = all.filter((w) => w.period === period);
    t.equal(reads.lastSeq(period), mine.at(-1)!.seq, `${period}: last seq`);
    for (const after of [0, mine[Math.min(3, mine.length - 1)]!.seq, mine.at(-1)!.seq]) {
      const expected = mine.filter((w) => w.seq > after);
      t.same(await readAll(reads, period, after), expected, `${period} after ${after}, on the event loop`);
    }
    // A replay's own thread reads with the same query (one thread start per read: once a period).
    t.same(await readAll(threaded, period, 0), mine, `${period}, on a thread`);
  }
  t.equal(reads.lastSeq('2031-01'), 0, 'a period without wins has none');
  t.same(await readAll(reads, '2031-01', 0), []);
}

const indexes = (db: DatabaseSync) =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'wins' ORDER BY name")
    .all()
    .map((row) => row['name']);

t.test('a log made by the older code opens with every period readable, then takes wins', async (t) => {
  const file = join(tempDataDir(t), 'wins.db');
  const db = openSqlite(file);
  t.teardown(() => db.close());
  db.exec(OLD_SCHEMA);
  const old = winsFrom(1, 60, ['2026-10', '2026-11', '2026-11', '2026-12']);
  oldAppend(db, old);

  const writer = new WinBatchWriter(db);
  t.same(indexes(db), ['wins_by_match'], 'the (period, seq) index is gone, the match ids stay unique');
  await checkReads(t, file, db, old);

  // New wins after the migration, one of them in the oldest period.
  const fresh = writer
    .write([
      { period: '2026-10', userId: 'late', points: 2, at: 5 },
      { period: '2027-01', userId: 'new', points: 3, matchId: 'm-new', at: 6 },
    ])
    .results.map((r) => r.win);
  t.same(
    fresh.map((w) => w.seq),
    [61, 62],
  );
  t.equal(
    writer.write([{ period: '2026-12', userId: 'x', points: 1, matchId: 'm1', at: 7 }]).results[0]!.duplicate,
    true,
  );
  await checkReads(t, file, db, [...old, ...fresh]);
});

t.test('a log the older code wrote to again (its index back, no ranges kept) is read whole', async (t) => {
  const file = join(tempDataDir(t), 'wins.db');
  const db = openSqlite(file);
  t.teardown(() => db.close());
  const writer = new WinBatchWriter(db);
  const first = writer
    .write(winsFrom(1, 30, ['2026-11', '2026-12']).map(({ seq: _seq, ...w }) => w))
    .results.map((r) => r.win);
  // The older code opens it: creates its index, and appends without touching the ranges.
  db.exec(OLD_SCHEMA.replace(/CREATE TABLE wins[^;]*;\s*CREATE UNIQUE INDEX[^;]*;/, ''));
  const later = winsFrom(31, 40, ['2026-11', '2026-12', '2027-01']);
  oldAppend(db, later);

  ensureWinSchema(db);
  t.same(indexes(db), ['wins_by_match']);
  await checkReads(t, file, db, [...first, ...later]);
});
