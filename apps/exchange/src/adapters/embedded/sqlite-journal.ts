import type { DatabaseSync } from 'node:sqlite';
import { walCopyBack, type WalRestarts } from '@tessera/kit/sqlite';
import { GroupCommitJournal } from './group-commit-journal.ts';
import { JournalBatchWriter, JournalReads } from './journal-store.ts';

export type { ExecutionRow } from './journal-store.ts';

/**
 * The journal in one node:sqlite connection, written on the event loop at the end of each turn:
 * where a commit does not wait for the disk (synchronous=normal, or a database in memory), this
 * is cheaper than handing batches to a writer thread (WorkerJournal, chosen for fsynced commits).
 * `walRestarts` (the file's WalCheckpointer) says when a batch first copies back the WAL.
 */
export class SqliteJournal extends GroupCommitJournal {
  constructor(db: DatabaseSync, walRestarts?: WalRestarts) {
    const writer = new JournalBatchWriter(db);
    const copyBack = walCopyBack(db, walRestarts);
    super(new JournalReads(db), {
      write: (batch) => {
        try {
          if (walRestarts?.takeRestart() === true) copyBack();
          writer.write(batch);
          return Promise.resolve();
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
      },
      close: () => Promise.resolve(),
    });
  }
}
