import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Period } from '../../core/period.ts';
import type { Win } from '../../core/win.ts';

/** What the reading thread is started with. */
export interface WinReadRequest {
  readonly file: string;
  readonly period: Period;
  readonly afterSeq: number;
  readonly batchSize: number;
}

/** One batch as the reading thread posts it: columns, the user ids joined by newlines. */
export interface WinColumnsBatch {
  seqs: Float64Array<ArrayBuffer>;
  points: Float64Array<ArrayBuffer>;
  ats: Float64Array<ArrayBuffer>;
  userIds: string;
  /** [index in the batch, match id] for the wins that have one. */
  matchIds: Array<[number, string]>;
}

// The thread is a sibling module: .ts when run from source, .js once built.
const READ_THREAD = new URL(
  `./win-log-read-thread${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

const READ_BATCH = 10_000;

/**
 * A replay of the win log read on a thread of its own, a batch ahead: while the caller applies
 * one batch, the thread reads the next. Reading and building the rows was about as long as
 * applying them (20 s and 37 s of a 25 M-win rebuild); here the event loop only turns columns
 * into wins. The thread has its own read-only connection (WAL: it sees every commit) and ends
 * with the replay, however the caller leaves it.
 */
export class ThreadedWinLogReads {
  readonly #file: string;
  readonly #batchSize: number;

  constructor(file: string, batchSize = READ_BATCH) {
    this.#file = file;
    this.#batchSize = batchSize;
  }

  async *read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    const request: WinReadRequest = { file: this.#file, period, afterSeq, batchSize: this.#batchSize };
    const thread = new Worker(READ_THREAD, { workerData: request });
    let next = nextBatch(thread);
    try {
      for (;;) {
        const batch = await next;
        if (batch.seqs.length === 0) return;
        next = nextBatch(thread); // read the next batch while this one is applied
        yield winsOf(batch, period);
      }
    } finally {
      // A caller that leaves early (a break, a failed apply) leaves the batch read ahead waiting:
      // ending the thread rejects it, and nobody else will look at that rejection.
      next.catch(() => undefined);
      await thread.terminate();
    }
  }
}

/** Asks the thread for its next batch; rejects when it fails or ends first. */
function nextBatch(thread: Worker): Promise<WinColumnsBatch> {
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      thread.off('message', onBatch);
      thread.off('error', onError);
      thread.off('exit', onExit);
    };
    const onBatch = (batch: WinColumnsBatch): void => {
      settle();
      resolve(batch);
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    const onExit = (code: number): void => {
      settle();
      reject(new Error(`the win log's reading thread exited (${code}) during a replay`));
    };
    thread.on('message', onBatch);
    thread.on('error', onError);
    thread.on('exit', onExit);
    thread.postMessage('next');
  });
}

function winsOf(batch: WinColumnsBatch, period: Period): Win[] {
  const userIds = batch.userIds.split('\n');
  const wins = new Array<Win>(userIds.length);
  for (let i = 0; i < wins.length; i++) {
    wins[i] = {
      seq: batch.seqs[i]!,
      period,
      userId: userIds[i]!,
      points: batch.points[i]!,
      matchId: undefined,
      at: batch.ats[i]!,
    };
  }
  for (const [i, matchId] of batch.matchIds) wins[i] = { ...wins[i]!, matchId };
  return wins;
}
