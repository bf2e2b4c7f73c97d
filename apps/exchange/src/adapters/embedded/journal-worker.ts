/**
 * The journal's writer thread: owns the write connection to journal.db, so that each group
 * commit (insert, COMMIT, fsync) never stalls the event loop that answers orders. A batch's answer
 * is posted only after its COMMIT returned: durable as SQLite's `synchronous` setting makes it.
 */
import { workerData } from 'node:worker_threads';
// The sqlite and worker subpaths only: the thread has no use for the HTTP stack the kit's index brings.
import { openSqlite, threadWalCopyBack } from '@tessera/kit/sqlite';
import { answerRequests } from '@tessera/kit/worker';
import { JournalBatchWriter } from './journal-store.ts';
import type { JournalCommand } from './worker-journal.ts';

const { file, synchronous, failCopyBacks } = workerData as {
  file: string;
  synchronous: 'full' | 'normal';
  failCopyBacks?: string;
};
const db = openSqlite(file, { synchronous });
// Never inside a group commit: the adapters' WalCheckpointer copies the WAL back on its own thread.
db.exec('PRAGMA wal_autocheckpoint = 0');
const writer = new JournalBatchWriter(db);
// When asked (WalCheckpointer#takeRestart): the batch's transaction then starts the WAL over. A
// copy-back that fails goes back as the batch's answer, to the checkpointer's stats.
const copyBack = threadWalCopyBack(db, failCopyBacks);

answerRequests<JournalCommand, string | null>((command) => {
  if (command.kind === 'close') {
    db.close();
    return null;
  }
  const copyBackFailure = command.restartWal ? copyBack() : undefined;
  writer.write(command.batch);
  return copyBackFailure ?? null;
});
