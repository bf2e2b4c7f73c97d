import { extname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { WalRestarts } from '@tessera/kit/sqlite';
import { BatchHandoff, Outcome, RequestKind, type FailureMessage } from './batch-handoff.ts';
import { GroupCommitJournal, type BatchSink } from './group-commit-journal.ts';
import { JournalReads, type JournalBatch } from './journal-store.ts';

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
  /** Bytes of commands a batch may carry in shared memory (larger ones go as a message). */
  readonly sharedBytes?: number;
}

/** What the writer thread is given. */
export interface WriterData {
  readonly file: string;
  readonly synchronous: 'full' | 'normal';
  readonly failCopyBacks: string | undefined;
  readonly shared: SharedArrayBuffer;
  readonly port: MessagePort;
}

/** About 14,000 plain orders: more in one batch is rare enough to go as a message. */
const SHARED_BYTES = 1024 * 1024;

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(`./journal-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** A second request while one is out: the journal's group commit never makes one. */
const ONE_AT_A_TIME = () => new Error('journal writer: one request at a time');

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Batches written by a worker thread over its own connection, one at a time, in order, handed
 * over in shared memory (batch-handoff.ts). A thread that fails or exits fails the batch with it
 * and every later one with the same error: no batch waits on a thread that is gone.
 */
class WorkerSink implements BatchSink {
  readonly #worker: Worker;
  readonly #handoff: BatchHandoff;
  readonly #port: MessagePort;
  readonly #walRestarts: WalRestarts | undefined;
  #waiter: Waiter | undefined;
  #failed: Error | undefined;
  readonly #onDone = (): void => this.#settle();

  constructor(options: WorkerJournalOptions) {
    const { file, synchronous, walRestarts, failCopyBacks } = options;
    this.#handoff = new BatchHandoff(options.sharedBytes ?? SHARED_BYTES);
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const workerData: WriterData = {
      file,
      synchronous,
      failCopyBacks,
      shared: this.#handoff.buffer,
      port: port2,
    };
    this.#worker = new Worker(WORKER, { workerData, transferList: [port2] });
    this.#worker.on('error', (error: Error) => this.#fail(error));
    this.#worker.on('exit', (code) =>
      this.#fail(new Error(`journal writer thread stopped (exit code ${code})`)),
    );
    this.#walRestarts = walRestarts;
  }

  write(batch: JournalBatch): Promise<void> {
    // Refused before anything is touched: the shared bytes and the port belong to a request out,
    // and a WAL restart asked for is kept for the next batch that is written.
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    if (this.#waiter !== undefined) return Promise.reject(ONE_AT_A_TIME());
    const shared = this.#handoff.putBatch(batch);
    if (!shared) {
      try {
        this.#port.postMessage(batch);
      } catch (error) {
        // A batch that cannot be cloned never reached the thread: only it fails (no restart taken).
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const restartWal = this.#walRestarts?.takeRestart() ?? false;
    return this.#request(shared ? RequestKind.SharedBatch : RequestKind.PortBatch, restartWal);
  }

  /** A close that fails still ends the thread; the batches before it were answered already. */
  async close(): Promise<void> {
    try {
      if (this.#failed === undefined) await this.#request(RequestKind.Close, false);
    } catch {
      // Ended below all the same.
    }
    await this.#worker.terminate();
    this.#port.close();
  }

  #request(kind: RequestKind, restartWal: boolean): Promise<void> {
    if (this.#waiter !== undefined) return Promise.reject(ONE_AT_A_TIME());
    const answered = new Promise<void>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
    void this.#handoff.send(kind, restartWal).then(this.#onDone);
    return answered;
  }

  /** The writer is done with the request: its outcome, and what the port holds of it. */
  #settle(): void {
    const waiter = this.#waiter;
    // Failed meanwhile (the thread stopped): the waiter has its answer.
    if (waiter === undefined) return;
    this.#waiter = undefined;
    const outcome = this.#handoff.outcome;
    if (outcome === Outcome.Written) return waiter.resolve();
    const message = receiveMessageOnPort(this.#port)?.message as unknown;
    if (outcome === Outcome.CopyBackFailed) {
      this.#walRestarts?.copyBackFailed(String(message));
      return waiter.resolve();
    }
    const { error, code, copyBackFailure } = (message ?? {
      error: 'the journal writer gave no reason',
    }) as FailureMessage;
    if (copyBackFailure !== undefined) this.#walRestarts?.copyBackFailed(copyBackFailure);
    const failure = error instanceof Error ? error : new Error(String(error));
    if (code !== undefined) Object.assign(failure, { code });
    waiter.reject(failure);
  }

  #fail(error: Error): void {
    this.#failed ??= error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(this.#failed);
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
