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

t.test(
  'a save writes exactly its players when new players grow the id table and renumber everyone between its chunks',
  async (t) => {
    const file = join(tempDir(t), 'ranking.db');
    const writer = new CheckpointWriter(file, 'normal');
    t.teardown(() => writer.close());
    // The hook gives every player a new handle every 1,000 new players, as a growth of a table
    // keyed by slot will (issue #15): a list the ranking did not renumber would read other players.
    const ranking = new Ranking('earliest', { renumberEvery: 1_000 });
    const expected = new Map<string, { score: number; seq: number }>();
    let seq = 0;
    const win = (userId: string, points: number): void => {
      ranking.apply(++seq, userId, points);
      expected.set(userId, { score: (expected.get(userId)?.score ?? 0) + points, seq });
    };
    const id = (i: number): string => `player-${String(i).padStart(5, '0')}`;
    for (let i = 0; i < 4_500; i++) win(id(i), 1 + (i % 7));
    ranking.top(0, 1); // placed, so the renumbering also rewrites the order's blocks
    for (let i = 0; i < 4_500; i += 5) win(id(i), 3);
    const saved = new Map(expected);

    // 4,500 players: three chunks. The save copies the first at once, then yields.
    const saving = writer.save('2026-11', ranking);
    const bytes = ranking.byteLength;
    for (let i = 4_500; i < 6_500; i++) win(id(i), 2);
    t.ok(ranking.byteLength > bytes, 'the new players grew the id table');
    t.equal(await saving, saved.size);

    const db = openSqlite(file);
    t.teardown(() => db.close());
    const rows = (): string[] =>
      db
        .prepare('SELECT user_id, score, seq FROM ranking_entries WHERE period = ?')
        .all('2026-11')
        .map((row) => `${String(row.user_id)}:${String(row.score)}:${String(row.seq)}`)
        .sort();
    const entries = (players: Map<string, { score: number; seq: number }>): string[] =>
      [...players].map(([userId, e]) => `${userId}:${e.score}:${e.seq}`).sort();
    t.same(rows(), entries(saved), "the save holds exactly the changed players' id, score and seq");

    t.equal(await writer.save('2026-11', ranking), 2_000, 'the next save writes the new players');
    t.same(rows(), entries(expected));
  },
);
