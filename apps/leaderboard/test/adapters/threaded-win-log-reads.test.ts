import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import t from 'tap';
import { ThreadedWinLogReads } from '../../src/adapters/embedded/threaded-win-log-reads.ts';
import { WinBatchWriter } from '../../src/adapters/embedded/win-batch-writer.ts';
import { WinLogReads } from '../../src/adapters/embedded/win-log-reads.ts';
import type { Win } from '../../src/core/win.ts';
import { tempDataDir } from '../helpers/app.ts';

async function collect(reads: AsyncIterable<readonly Win[]>): Promise<Win[][]> {
  const batches: Win[][] = [];
  for await (const batch of reads) batches.push([...batch]);
  return batches;
}

t.test('a replay on its own thread gives the wins the event loop reads, batch by batch', async (t) => {
  const file = join(tempDataDir(t), 'wins.db');
  const db = openSqlite(file);
  t.teardown(() => db.close());
  const wins = Array.from({ length: 23 }, (_, i) => ({
    period: i % 4 === 0 ? '2026-10' : '2026-11',
    userId: `player_${i % 7}`,
    points: 1 + (i % 5),
    matchId: i % 3 === 0 ? `match-${i}` : undefined,
    at: 1_700_000_000_000 + i,
  }));
  new WinBatchWriter(db).write(wins);
  const eventLoopReads = new WinLogReads(db);
  const reads = new ThreadedWinLogReads(file, 5);
  for (const [period, after] of [
    ['2026-11', 0],
    ['2026-11', 9],
    ['2026-10', 0],
    ['2026-12', 0],
  ] as const) {
    const expected = await collect(eventLoopReads.read(period, after));
    const threaded = await collect(reads.read(period, after));
    t.same(threaded.flat(), expected.flat(), `${period} after ${after}: the same wins`);
    t.ok(
      threaded.every((batch) => batch.length <= 5),
      'in batches of at most 5',
    );
  }
});

t.test('a replay left early ends its thread; a file that cannot be read fails the replay', async (t) => {
  const file = join(tempDataDir(t), 'wins.db');
  const db = openSqlite(file);
  t.teardown(() => db.close());
  new WinBatchWriter(db).write(
    Array.from({ length: 12 }, (_, i) => ({ period: '2026-11', userId: `u${i}`, points: 1, at: i })),
  );
  const reads = new ThreadedWinLogReads(file, 4);
  for await (const batch of reads.read('2026-11', 0)) {
    t.equal(batch.length, 4);
    break; // the finally of the replay terminates the thread: the test ends without waiting for it
  }
  const missing = new ThreadedWinLogReads(join(tempDataDir(t), 'none', 'wins.db'));
  await t.rejects(collect(missing.read('2026-11', 0)), /unable to open|no such/i);
});
