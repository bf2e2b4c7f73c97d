import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import t from 'tap';
import { SqliteRankingCheckpoints } from '../../src/adapters/embedded/sqlite-ranking-checkpoints.ts';
import { tempDataDir } from '../helpers/app.ts';

t.test('saved entries, written in key order, load back whatever order they came in', async (t) => {
  const db = openSqlite(join(tempDataDir(t), 'ranking.db'));
  t.teardown(() => db.close());
  const checkpoints = new SqliteRankingCheckpoints(db);
  checkpoints.writeEntries('2026-11', {
    userIds: ['carol', 'alice', 'bob'],
    scores: Float64Array.of(3, 1, 2),
    seqs: Float64Array.of(30, 10, 20),
  });
  // Later entries replace earlier ones for the same player; the others stay.
  checkpoints.writeEntries('2026-11', {
    userIds: ['bob'],
    scores: Float64Array.of(7),
    seqs: Float64Array.of(40),
  });
  checkpoints.markCovered('2026-11', 40);
  const rows = db.prepare('SELECT user_id, score, seq FROM ranking_entries ORDER BY user_id').all();
  t.same(
    rows.map((row) => [row['user_id'], row['score'], row['seq']]),
    [
      ['alice', 1, 10],
      ['bob', 7, 40],
      ['carol', 3, 30],
    ],
  );
  const ranking = checkpoints.load('2026-11', 'shared');
  t.equal(ranking.appliedSeq, 40);
  t.equal(ranking.standing('bob')?.score, 7);
  t.equal(ranking.standing('carol')?.score, 3);
});
