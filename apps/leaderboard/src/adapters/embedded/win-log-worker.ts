/**
 * The win log's writer thread: owns the write connection to wins.db, so that the group commit
 * (inserts, COMMIT, fsync) of each batch never stalls the event loop that answers requests.
 * A batch's answer is posted only after its COMMIT returned: durable as SQLite's `synchronous`
 * setting makes it.
 */
import { workerData } from 'node:worker_threads';
// The sqlite and worker subpaths only: the thread has no use for the HTTP stack the kit's index brings.
import { openSqlite, threadWalCopyBack } from '@tessera/kit/sqlite';
import { answerRequests } from '@tessera/kit/worker';
import type { Win } from '../../core/win.ts';
import { WinBatchWriter } from './win-batch-writer.ts';
import { decodeWins } from './win-batch-codec.ts';
import type { WinLogCommand, WrittenSeqs } from './worker-win-log.ts';

const { file, synchronous, failCopyBacks } = workerData as {
  file: string;
  synchronous: 'full' | 'normal';
  failCopyBacks?: string;
};
const db = openSqlite(file, { synchronous });
// Never inside a group commit: the kit's WalCheckpointer copies the WAL back from a thread of its own.
db.exec('PRAGMA wal_autocheckpoint = 0');
const writer = new WinBatchWriter(db);
// When asked (WalCheckpointer#takeRestart): the batch's transaction then starts the WAL over. A
// copy-back that fails goes back with the batch's answer, to the checkpointer's stats.
const copyBack = threadWalCopyBack(db, failCopyBacks);

answerRequests<WinLogCommand, WrittenSeqs>(
  (command) => {
    if (command.kind === 'close') {
      db.close();
      return { seqs: new Float64Array(0), originals: [], copyBackFailure: undefined };
    }
    const copyBackFailure = command.restartWal ? copyBack() : undefined;
    const { results } = writer.write(decodeWins(command.wins));
    // Seqs only, and the original of each replayed match id: the caller has the rest.
    const seqs = new Float64Array(results.length);
    const originals: Array<[number, Win]> = [];
    results.forEach((result, i) => {
      seqs[i] = result.win.seq;
      if (result.duplicate) originals.push([i, result.win]);
    });
    return { seqs, originals, copyBackFailure };
  },
  (written) => [written.seqs.buffer],
);
