/**
 * The checkpoint worker: owns the write connection to ranking.db, so that the upserts and
 * fsyncs of a checkpoint never stall the event loop that answers requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
// The sqlite subpath only: the worker has no use for the HTTP stack the kit's index brings.
import { openSqlite } from '@tessera/kit/sqlite';
import type { CheckpointCommand } from './checkpoint-writer.ts';
import { SqliteRankingCheckpoints } from './sqlite-ranking-checkpoints.ts';

const { file, synchronous } = workerData as { file: string; synchronous: 'full' | 'normal' };
const db = openSqlite(file, { synchronous });
const checkpoints = new SqliteRankingCheckpoints(db);

parentPort?.on('message', (command: CheckpointCommand) => {
  try {
    switch (command.kind) {
      case 'entries':
        checkpoints.writeEntries(command.period, command.chunk);
        break;
      case 'covered':
        checkpoints.markCovered(command.period, command.seq);
        break;
      case 'discard':
        checkpoints.discard(command.period);
        break;
      case 'close':
        db.close();
        break;
    }
    parentPort?.postMessage({ id: command.id, ok: true });
  } catch (error) {
    parentPort?.postMessage({ id: command.id, ok: false, message: (error as Error).message });
  }
});
