/**
 * The journal's writer thread: owns the write connection to journal.db, so that each group
 * commit (insert, COMMIT, fsync) never stalls the event loop that answers orders. A batch's answer
 * is posted only after its COMMIT returned: durable as SQLite's `synchronous` setting makes it.
 */
import { parentPort, workerData } from 'node:worker_threads';
// The sqlite subpath only: the worker has no use for the HTTP stack the kit's index brings.
import { openSqlite } from '@tessera/kit/sqlite';
import { JournalBatchWriter } from './journal-store.ts';
import type { JournalCommand, JournalReply } from './worker-journal.ts';

const { file, synchronous } = workerData as { file: string; synchronous: 'full' | 'normal' };
const db = openSqlite(file, { synchronous });
// Never inside a group commit: the adapters' WalCheckpointer copies the WAL back on its own thread.
db.exec('PRAGMA wal_autocheckpoint = 0');
const writer = new JournalBatchWriter(db);

parentPort?.on('message', (command: JournalCommand) => {
  let reply: JournalReply;
  try {
    if (command.kind === 'close') db.close();
    else writer.write(command.batch);
    reply = { id: command.id, ok: true };
  } catch (error) {
    // The Error itself, not its message: structured cloning keeps its message, stack and code.
    reply = { id: command.id, ok: false, error };
  }
  parentPort?.postMessage(reply);
});
