import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { GroupCommitWinLog } from '../../src/adapters/embedded/group-commit-win-log.ts';

t.test('a construction that throws starts no thread (the WAL checkpointer would leak)', async (t) => {
  const file = join(tempDir(t, 'tessera-group-log-'), 'wins.db');
  const reader = openSqlite(file);
  const started: Worker[] = [];
  // Node publishes every new Worker here, before it runs.
  const onWorker = (message: unknown) => started.push((message as { worker: Worker }).worker);
  subscribe('worker_threads', onWorker);
  t.teardown(async () => {
    unsubscribe('worker_threads', onWorker);
    await Promise.all(started.map((worker) => worker.terminate())); // so a failing run still ends
    reader.close();
  });
  // The group commit's constructor throws on a hold it cannot turn into nanoseconds.
  t.throws(
    () => new GroupCommitWinLog({ file, synchronous: 'full', reader, holdMicros: Number.NaN }),
    RangeError,
  );
  t.equal(started.length, 0, 'no thread was started');
  const log = new GroupCommitWinLog({ file, synchronous: 'full', reader });
  t.equal(started.length, 1, 'a log that is made starts its checkpointer');
  await log.close();
});
