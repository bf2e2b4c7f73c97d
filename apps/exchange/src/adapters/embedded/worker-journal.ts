import { extname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GroupCommitJournal, type BatchSink } from './group-commit-journal.ts';
import { JournalReads, type JournalBatch } from './journal-store.ts';

export type JournalCommand =
  | { readonly id: number; readonly kind: 'write'; readonly batch: JournalBatch }
  | { readonly id: number; readonly kind: 'close' };

export type JournalReply =
  | { readonly id: number; readonly ok: true }
  | { readonly id: number; readonly ok: false; readonly error: unknown };

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
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (reply: JournalReply) => void>();
  #nextId = 1;
  #failed: Error | undefined;

  constructor(file: string, synchronous: 'full' | 'normal') {
    this.#worker = new Worker(WORKER, { workerData: { file, synchronous } });
    this.#worker.on('message', (reply: JournalReply) => {
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      waiter?.(reply);
    });
    this.#worker.on('error', (error: Error) => this.#fail(error));
    this.#worker.on('exit', () => this.#fail(new Error('journal worker stopped')));
  }

  write(batch: JournalBatch): Promise<void> {
    return this.#request({ kind: 'write', batch });
  }

  async close(): Promise<void> {
    if (this.#failed === undefined) await this.#request({ kind: 'close' }).catch(() => undefined);
    await this.#worker.terminate();
  }

  #request(command: { kind: 'write'; batch: JournalBatch } | { kind: 'close' }): Promise<void> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (reply) =>
        reply.ok
          ? resolve()
          : reject(reply.error instanceof Error ? reply.error : new Error(String(reply.error))),
      );
      this.#worker.postMessage({ ...command, id });
    });
  }

  /** The worker is gone: every batch waiting on it, and every later one, fails. */
  #fail(error: Error): void {
    this.#failed ??= error;
    for (const [id, waiter] of this.#waiting) waiter({ id, ok: false, error });
    this.#waiting.clear();
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
