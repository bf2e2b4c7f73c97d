import { extname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WalRestarts } from '@tessera/kit/sqlite';
import { WorkerChannel } from '@tessera/kit/worker';
import { GroupCommitJournal, type BatchSink } from './group-commit-journal.ts';
import { JournalReads, type JournalBatch } from './journal-store.ts';

export type JournalCommand =
  | {
      readonly kind: 'write';
      readonly batch: JournalBatch;
      /** Copy back the WAL's last frames first: the batch's transaction then starts it over. */
      readonly restartWal: boolean;
    }
  | { readonly kind: 'close' };

export interface WorkerJournalOptions {
  /** journal.db; the worker opens its own write connection to it. */
  readonly file: string;
  readonly synchronous: 'full' | 'normal';
  /** A connection to the same file for the reads (replay, snapshots, executions), on the event loop. */
  readonly reader: DatabaseSync;
  /** When a batch first copies back the WAL (the file's WalCheckpointer); never when absent. */
  readonly walRestarts?: WalRestarts;
  /** Tests: every copy-back fails with this message, as a disk fault would. */
  readonly failCopyBacks?: string;
}

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(`./journal-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** Batches written by a worker thread over its own connection: one at a time, in order. */
class WorkerSink implements BatchSink {
  /** A batch's answer: why the WAL copy-back before it failed, or null. */
  readonly #channel: WorkerChannel<JournalCommand, string | null>;
  readonly #walRestarts: WalRestarts | undefined;

  constructor(options: WorkerJournalOptions) {
    const { file, synchronous, walRestarts, failCopyBacks } = options;
    this.#channel = new WorkerChannel(
      new Worker(WORKER, { workerData: { file, synchronous, failCopyBacks } }),
      'journal writer',
    );
    this.#walRestarts = walRestarts;
  }

  async write(batch: JournalBatch): Promise<void> {
    const restartWal = this.#walRestarts?.takeRestart() ?? false;
    const copyBackFailure = await this.#channel.request({ kind: 'write', batch, restartWal });
    if (copyBackFailure !== null) this.#walRestarts?.copyBackFailed(copyBackFailure);
  }

  /** A close that fails still ends the thread; the batches before it were answered already. */
  close(): Promise<void> {
    return this.#channel.close({ kind: 'close' }).catch(() => undefined);
  }
}

/**
 * The journal with its group commit on a worker thread (as the leaderboard's win log): the event
 * loop keeps matching and answering while a batch is inserted, committed and fsynced, and what
 * arrives meanwhile is the next batch. An order is still answered only once its batch committed.
 */
export class WorkerJournal extends GroupCommitJournal {
  constructor(options: WorkerJournalOptions) {
    // The reads' constructor creates the tables before the worker opens its connection.
    super(new JournalReads(options.reader), new WorkerSink(options));
  }
}
