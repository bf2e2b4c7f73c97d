import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { CheckpointWriter } from '../../src/adapters/embedded/checkpoint-writer.ts';
import { SqliteRankingCheckpoints } from '../../src/adapters/embedded/sqlite-ranking-checkpoints.ts';
import { Ranking } from '../../src/core/ranking.ts';

t.test('a failure inside the checkpoint worker reaches the caller with its cause and stack', async (t) => {
  const file = join(tempDir(t), 'ranking.db');
  // A table the worker cannot write to: its schema refuses every score.
  const db = openSqlite(file);
  db.exec(
    'CREATE TABLE ranking_entries (period TEXT NOT NULL, user_id TEXT NOT NULL, score INTEGER NOT NULL CHECK (score < 0), seq INTEGER NOT NULL, PRIMARY KEY (period, user_id)) WITHOUT ROWID',
  );
  db.close();
  const writer = new CheckpointWriter(file, 'normal');
  t.teardown(() => writer.close());
  const ranking = new Ranking('shared');
  ranking.apply(1, 'alice', 3);
  const error = await writer.save('2026-11', ranking).catch((e: unknown) => e);
  t.type(error, Error);
  t.match((error as Error).message, /checkpoint write failed/);
  const cause = (error as Error).cause as Error;
  t.type(cause, Error, 'the original error, not its message');
  t.match(cause.message, /CHECK constraint failed/);
  t.match(cause.stack, /sqlite-ranking-checkpoints/, "the stack points into the worker's code");
  t.equal(ranking.takeChanges().length, 1, 'the unsaved player is kept for the next checkpoint');
});

t.test('a checkpoint that fails in a later chunk leaves the previous checkpoint whole', async (t) => {
  const file = join(tempDir(t), 'ranking.db');
  // Scores of 1,000 and more are refused: the last player of the second save breaks its 2nd chunk.
  const db = openSqlite(file);
  db.exec(
    'CREATE TABLE ranking_entries (period TEXT NOT NULL, user_id TEXT NOT NULL, score INTEGER NOT NULL CHECK (score < 1000), seq INTEGER NOT NULL, PRIMARY KEY (period, user_id)) WITHOUT ROWID',
  );
  const writer = new CheckpointWriter(file, 'normal');
  t.teardown(async () => {
    await writer.close();
    db.close();
  });
  const players = Array.from({ length: 2_500 }, (_, i) => `player-${String(i).padStart(5, '0')}`);
  const ranking = new Ranking('shared');
  let seq = 0;
  for (const player of players) ranking.apply(++seq, player, 1);
  t.equal(await writer.save('2026-11', ranking), players.length);
  const firstSeq = seq;

  for (const player of players) ranking.apply(++seq, player, 1);
  ranking.apply(seq + 1, players.at(-1)!, 5_000);
  const error = await writer.save('2026-11', ranking).catch((e: unknown) => e);
  t.match((error as Error).message, /checkpoint write failed/);

  const saved = new SqliteRankingCheckpoints(db);
  t.equal(saved.appliedSeq('2026-11'), firstSeq, 'the covered seq is the first save’s');
  const loaded = saved.load('2026-11', 'shared');
  const scores = new Set(players.map((player) => loaded.standing(player)?.score));
  t.same([...scores], [1], 'every entry, in the first chunk too, is the first save’s');
  t.equal(ranking.takeChanges().length, players.length, 'every unsaved player is kept for the next one');
});
