/**
 * The checkpoint worker: owns the write connection to ranking.db, so that the upserts and
 * fsyncs of a checkpoint never stall the event loop that answers requests. A checkpoint is one
 * transaction: its chunks go in, `covered` commits them, `abandon` drops them.
 */
import { workerData } from 'node:worker_threads';
// The sqlite and worker subpaths only: the thread has no use for the HTTP stack the kit's index brings.
import { openSqlite } from '@tessera/kit/sqlite';
import { answerRequests } from '@tessera/kit/worker';
import type { CheckpointCommand } from './checkpoint-writer.ts';
import { SqliteRankingCheckpoints } from './sqlite-ranking-checkpoints.ts';

const { file, synchronous } = workerData as { file: string; synchronous: 'full' | 'normal' };

/**
 * A checkpoint is never urgent, while requests are: after each chunk the worker sleeps twice as
 * long as the chunk took, so that it uses at most a third of a core even when it shares the
 * event loop's core, and a large checkpoint is spread over time instead of stealing bursts.
 */
const PAUSE_PER_WORK = 2;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
function pauseAfter(workMs: number): void {
  Atomics.wait(sleeper, 0, 0, workMs * PAUSE_PER_WORK);
}
const db = openSqlite(file, { synchronous });
const checkpoints = new SqliteRankingCheckpoints(db);

answerRequests<CheckpointCommand, null>((command) => {
  switch (command.kind) {
    case 'entries': {
      const started = performance.now();
      checkpoints.writeEntries(command.period, command.chunk);
      pauseAfter(performance.now() - started);
      break;
    }
    case 'covered':
      checkpoints.markCovered(command.period, command.seq);
      break;
    case 'abandon':
      checkpoints.abandon();
      break;
    case 'discard':
      checkpoints.discard(command.period);
      break;
    case 'close':
      db.close();
      break;
  }
  return null;
});
