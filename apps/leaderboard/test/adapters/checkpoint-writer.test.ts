import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { CheckpointWriter } from '../../src/adapters/embedded/checkpoint-writer.ts';
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
