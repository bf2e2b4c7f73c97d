/**
 * The journal's writer thread: owns the write connection to journal.db, so that each group
 * commit (insert, COMMIT, fsync) never stalls the event loop that answers orders. It waits for
 * requests in shared memory (batch-handoff.ts), blocked in Atomics.wait: it has no event loop
 * turn of its own to pay for. A batch's outcome is given only after its COMMIT returned: durable
 * as SQLite's `synchronous` setting makes it.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
// The sqlite subpath only: the thread has no use for the HTTP stack the kit's index brings.
import { openSqlite, threadWalCopyBack } from '@tessera/kit/sqlite';
import { BatchHandoff, Outcome, RequestKind, type FailureMessage } from './batch-handoff.ts';
import { JournalBatchWriter, type JournalBatch } from './journal-store.ts';
import type { WriterData } from './worker-journal.ts';

const { file, synchronous, failCopyBacks, shared, port } = workerData as WriterData;
const db = openSqlite(file, { synchronous });
// Never inside a group commit: the adapters' WalCheckpointer copies the WAL back on its own thread.
db.exec('PRAGMA wal_autocheckpoint = 0');
const writer = new JournalBatchWriter(db);
// When asked (WalCheckpointer#takeRestart): the batch's transaction then starts the WAL over. A
// copy-back that fails goes back with the batch's outcome, to the checkpointer's stats.
const copyBack = threadWalCopyBack(db, failCopyBacks);
const handoff = new BatchHandoff(shared);

for (let handled = 0; ; handled++) {
  const request = handoff.nextRequest(handled);
  if (request.kind === RequestKind.Close) {
    db.close();
    handoff.finish(Outcome.Written);
    break;
  }
  let copyBackFailure: string | undefined;
  try {
    const batch =
      request.kind === RequestKind.SharedBatch
        ? handoff.sharedBatch()
        : (receiveMessageOnPort(port)?.message as JournalBatch);
    copyBackFailure = request.restartWal ? copyBack() : undefined;
    writer.write(batch);
    if (copyBackFailure === undefined) handoff.finish(Outcome.Written);
    else {
      port.postMessage(copyBackFailure);
      handoff.finish(Outcome.CopyBackFailed);
    }
  } catch (error) {
    // The copy-back's failure goes with the batch's: the checkpointer counts it either way.
    postFailure(port, error, copyBackFailure);
    handoff.finish(Outcome.Failed);
  }
}

/**
 * Posts a failure; one that cannot be cloned (a property holding a function, say) goes as its
 * text and code, so that no outcome is ever without its reason.
 */
function postFailure(to: MessagePort, error: unknown, copyBackFailure: string | undefined): void {
  const code = (error as { code?: unknown } | null)?.code;
  try {
    to.postMessage({ error, code, copyBackFailure } satisfies FailureMessage);
  } catch {
    const message = (error as { message?: unknown } | null)?.message;
    const text = typeof message === 'string' ? message : String(error);
    to.postMessage({
      error: new Error(text),
      code: typeof code === 'string' ? code : undefined,
      copyBackFailure,
    } satisfies FailureMessage);
  }
}
