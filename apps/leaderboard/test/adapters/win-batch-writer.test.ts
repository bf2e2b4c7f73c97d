import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import t from 'tap';
import { WinBatchWriter, type WinRow } from '../../src/adapters/embedded/win-batch-writer.ts';
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
