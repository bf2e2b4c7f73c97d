/**
 * The win log's writer thread: owns the write connection to wins.db, so that the group commit
 * (inserts, COMMIT, fsync) of each batch never stalls the event loop that answers requests.
 * A batch's answer is posted only after its COMMIT returned: durable as SQLite's `synchronous`
 * setting makes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
// The sqlite subpath only: the worker has no use for the HTTP stack the kit's index brings.
import { openSqlite } from '@tessera/kit/sqlite';
import type { Win } from '../../core/win.ts';
import { WinBatchWriter } from './win-batch-writer.ts';
import type { WinLogCommand, WinLogReply } from './worker-win-log.ts';

const { file, synchronous } = workerData as { file: string; synchronous: 'full' | 'normal' };
const db = openSqlite(file, { synchronous });
// Never inside a group commit: the kit's WalCheckpointer copies the WAL back from a thread of its own.
db.exec('PRAGMA wal_autocheckpoint = 0');
const writer = new WinBatchWriter(db);

parentPort?.on('message', (command: WinLogCommand) => {
  let reply: WinLogReply;
  if (command.kind === 'close') {
    db.close();
    reply = { id: command.id, ok: true };
  } else {
    try {
      const { results } = writer.write(command.wins);
      // Seqs only, and the original of each replayed match id: the caller has the rest.
      const seqs = new Float64Array(results.length);
      const originals: Array<[number, Win]> = [];
      results.forEach((result, i) => {
        seqs[i] = result.win.seq;
        if (result.duplicate) originals.push([i, result.win]);
      });
      reply = { id: command.id, ok: true, seqs, originals };
    } catch (error) {
      // The Error itself, not its message: structured cloning keeps its message, stack and code.
      reply = { id: command.id, ok: false, error };
    }
  }
  parentPort?.postMessage(reply);
});
