import { extname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WorkerChannel } from '@tessera/kit/worker';
import { GroupCommitJournal, type BatchSink } from './group-commit-journal.ts';
import { JournalReads, type JournalBatch } from './journal-store.ts';

export type JournalCommand =
  { readonly kind: 'write'; readonly batch: JournalBatch } | { readonly kind: 'close' };

export interface WorkerJournalOptions {
  /** journal.db; the worker opens its own write connection to it. */
  readonly file: string;
  readonly synchronous: 'full' | 'normal';
  /** A connection to the same file for the reads (replay, snapshots, executions), on the event loop. */
  readonly reader: DatabaseSync;
}

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(`./journal-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** Batches written by a worker thread over its own connection: one at a time, in order. */
class WorkerSink implements BatchSink {
  readonly #channel: WorkerChannel<JournalCommand, null>;

  constructor(file: string, synchronous: 'full' | 'normal') {
    this.#channel = new WorkerChannel(
      new Worker(WORKER, { workerData: { file, synchronous } }),
      'journal writer',
    );
  }

  async write(batch: JournalBatch): Promise<void> {
    await this.#channel.request({ kind: 'write', batch });
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
    super(new JournalReads(options.reader), new WorkerSink(options.file, options.synchronous));
  }
}
