import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import t from 'tap';
import { WinBatchWriter, type WinRow } from '../../src/adapters/embedded/win-batch-writer.ts';
import { WinLogReads } from '../../src/adapters/embedded/win-log-reads.ts';
import type { NewWin } from '../../src/core/win.ts';
import { tempDataDir } from '../helpers/app.ts';

const win = (i: number, matchId?: string): NewWin => ({
  period: i % 3 === 0 ? '2026-10' : '2026-11',
  userId: `u${i}`,
  points: 1 + (i % 7),
  matchId,
  at: 1_000 + i,
});

t.test('a batch larger than one INSERT is written whole, in order, duplicates answered', async (t) => {
  const db = openSqlite(join(tempDataDir(t), 'wins.db'));
  t.teardown(() => db.close());
  const writer = new WinBatchWriter(db);
  const earlier = writer.write([win(0, 'm-old')]).results[0]!.win;

  // 150 wins: several INSERTs of 64 rows and a remainder; match ids seen before (in the log and
  // earlier in this batch, across an INSERT boundary) are answered with their original.
  const batch = Array.from({ length: 150 }, (_, i) => win(i + 1, i % 10 === 0 ? `m${i}` : undefined));
  batch[70] = win(999, 'm0'); // first recorded at index 0 of this batch, in the first INSERT
  batch[140] = win(998, 'm-old'); // recorded by the batch before
  const { results, newPeriods } = writer.write(batch);

  t.same(newPeriods, ['2026-11'], 'a period new to the log is reported once');
  t.same(results[70], { win: results[0]!.win, duplicate: true });
  t.same(results[140], { win: earlier, duplicate: true });
  const fresh = results.filter((result) => !result.duplicate).map((result) => result.win);
  t.same(
    fresh.map((w) => w.seq),
    Array.from({ length: 148 }, (_, i) => i + 2),
    'consecutive seqs after the earlier batch, none for the duplicates',
  );
  const rows = db.prepare('SELECT * FROM wins WHERE seq > 1 ORDER BY seq').all() as unknown as WinRow[];
  t.same(
    rows.map((row) => [row.seq, row.period, row.user_id, row.points, row.match_id, row.at]),
    fresh.map((w) => [w.seq, w.period, w.userId, w.points, w.matchId ?? null, w.at]),
    'every new win stored as given',
  );
});

t.test('a failed INSERT rolls the whole batch back and the next batch reuses its seqs', async (t) => {
  const db = openSqlite(join(tempDataDir(t), 'wins.db'));
  t.teardown(() => db.close());
  const writer = new WinBatchWriter(db);
  db.exec(
    "CREATE TRIGGER fail BEFORE INSERT ON wins WHEN NEW.user_id = 'u100' BEGIN SELECT RAISE(ABORT, 'no room'); END",
  );
  t.throws(() => writer.write(Array.from({ length: 120 }, (_, i) => win(i))), /no room/);
  t.equal((db.prepare('SELECT COUNT(*) AS n FROM wins').get() as { n: number }).n, 0, 'nothing of it stays');
  const { results } = writer.write([win(1)]);
  t.equal(results[0]!.win.seq, 1);
});

t.test('a new log indexes only the wins that carry a match id, and still refuses a reused one', async (t) => {
  const db = openSqlite(join(tempDataDir(t), 'wins.db'));
  t.teardown(() => db.close());
  const writer = new WinBatchWriter(db);
  writer.write([win(1, 'm1'), win(2), win(3)]);
  const indexed = db.prepare(
    'SELECT COUNT(*) AS n FROM wins INDEXED BY wins_by_match WHERE match_id IS NOT NULL',
  );
  t.equal((indexed.get() as { n: number }).n, 1, 'one entry: the win with a match id');
  t.throws(
    () => db.exec("INSERT INTO wins VALUES (9, '2026-11', 'u9', 1, 'm1', 9)"),
    /UNIQUE constraint failed/,
  );
  t.same(writer.write([win(4, 'm1')]).results[0], { win: { ...win(1, 'm1'), seq: 1 }, duplicate: true });
});

t.test(
  'a log created with a UNIQUE match_id column is written as before, no index added, (period, seq) dropped',
  async (t) => {
    const db = openSqlite(join(tempDataDir(t), 'wins.db'));
    t.teardown(() => db.close());
    db.exec(`
    CREATE TABLE wins (seq INTEGER PRIMARY KEY, period TEXT NOT NULL, user_id TEXT NOT NULL,
      points INTEGER NOT NULL, match_id TEXT UNIQUE, at INTEGER NOT NULL);
    CREATE INDEX wins_by_period ON wins (period, seq);
    CREATE TABLE win_periods (period TEXT PRIMARY KEY) WITHOUT ROWID;
  `);
    const writer = new WinBatchWriter(db);
    const first = writer.write([win(1, 'm1'), win(2)]).results[0]!.win;
    t.same(writer.write([win(5, 'm1')]).results[0], { win: first, duplicate: true });
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").all();
    t.same(
      indexes.map((row) => row['name']),
      ['sqlite_autoindex_wins_1'],
    );
  },
);

t.test(
  "the log keeps each period's player sketch with its wins: reopened, rolled back, estimated",
  async (t) => {
    const file = join(tempDataDir(t), 'wins.db');
    const db = openSqlite(file);
    t.teardown(() => db.close());
    const writer = new WinBatchWriter(db);
    const player = (i: number, period = '2026-11'): NewWin => ({ period, userId: `p${i}`, points: 1, at: i });
    // 30,000 players of November, each twice, and 2,000 of October, in batches of 1,000.
    for (let from = 0; from < 60_000; from += 1_000)
      writer.write(Array.from({ length: 1_000 }, (_, i) => player((from + i) % 30_000)));
    writer.write(Array.from({ length: 2_000 }, (_, i) => player(i, '2026-10')));
    const reads = new WinLogReads(db);
    const november = reads.players('2026-11');
    t.ok(Math.abs(november / 30_000 - 1) < 0.012, `November: ${november} of 30,000 players`);
    t.ok(
      Math.abs(reads.players('2026-10') / 2_000 - 1) < 0.012,
      `October: ${reads.players('2026-10')} of 2,000`,
    );
    t.equal(reads.players('2026-09'), 0, 'a period without wins has none');

    // A batch that fails leaves neither its wins nor its raises, on disk or in the writer.
    db.exec(
      "CREATE TRIGGER fail BEFORE INSERT ON wins WHEN NEW.user_id = 'p99999' BEGIN SELECT RAISE(ABORT, 'no room'); END",
    );
    t.throws(() => writer.write(Array.from({ length: 20_000 }, (_, i) => player(80_000 + i))), /no room/);
    t.equal(reads.players('2026-11'), november, 'the rolled-back batch raised no saved register');
    db.exec('DROP TRIGGER fail');
    // Sent again, the same players raise the same registers: the writer had put them back too.
    writer.write(Array.from({ length: 20_000 }, (_, i) => player(80_000 + i)));
    const retried = reads.players('2026-11');
    t.ok(Math.abs(retried / 50_000 - 1) < 0.012, `the batch sent again counts: ${retried} of 50,000`);
    const again = new WinBatchWriter(db);
    again.write(Array.from({ length: 10_000 }, (_, i) => player(30_000 + i)));
    const after = reads.players('2026-11');
    t.ok(
      Math.abs(after / 60_000 - 1) < 0.012,
      `a writer opened again goes on from the saved sketch: ${after} of 60,000`,
    );
  },
);
