/**
 * Copies a SQLite file's write-ahead log back into the file from a thread of its own, every
 * `intervalMs`, so that a group commit never does it: SQLite's automatic checkpoint runs inside the
 * COMMIT that crosses its threshold, and that batch's requests then wait for a few megabytes of
 * writes and an fsync of the database file (the leaderboard's score updates: p99 217–261 ms at
 * saturation, 8 ms without). PASSIVE: it never waits for the writer, nor the writer for it; pages
 * the writer is still using are left for the next round.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from './sqlite.ts';

const { file, synchronous, intervalMs } = workerData as {
  file: string;
  synchronous: 'full' | 'normal';
  intervalMs: number;
};
const db = openSqlite(file, { synchronous });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    const result = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    // Busy: another connection's checkpoint (the writer's copy-back) holds the WAL; the round did
    // not run and its log and checkpointed are -1, not frames.
    parentPort?.postMessage(
      result.busy === 0
        ? { kind: 'checkpointed', log: result.log, checkpointed: result.checkpointed }
        : { kind: 'busy' },
    );
  } catch (error) {
    // A failed round (the disk, a lock held too long) is the next round's to retry.
    parentPort?.postMessage({ kind: 'failed', message: String(error) });
  }
}, intervalMs);

parentPort?.on('message', (command: { kind: 'close' }) => {
  if (command.kind !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort?.postMessage({ kind: 'closed' });
});
