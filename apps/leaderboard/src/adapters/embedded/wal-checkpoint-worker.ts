/**
 * Copies the win log's write-ahead log back into wins.db from a thread of its own, every
 * `intervalMs`, so that the group commit never does it: SQLite's automatic checkpoint runs inside
 * the COMMIT that crosses its threshold, and that batch's requests then waited for a few megabytes
 * of writes and an fsync of the database file (p99 of score updates 217–261 ms at saturation,
 * 7–11 ms without). PASSIVE: it never waits for the writer, nor the writer for it; pages the
 * writer is still using are left for the next round.
 */
import { parentPort, workerData } from 'node:worker_threads';
// The sqlite subpath only: the worker has no use for the HTTP stack the kit's index brings.
import { openSqlite } from '@tessera/kit/sqlite';

const { file, synchronous, intervalMs } = workerData as {
  file: string;
  synchronous: 'full' | 'normal';
  intervalMs: number;
};
const db = openSqlite(file, { synchronous });
const timer = setInterval(() => {
  const result = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as {
    busy: number;
    log: number;
    checkpointed: number;
  };
  parentPort?.postMessage({ kind: 'checkpointed', log: result.log, checkpointed: result.checkpointed });
}, intervalMs);

parentPort?.on('message', (command: { kind: 'close' }) => {
  if (command.kind !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort?.postMessage({ kind: 'closed' });
});
