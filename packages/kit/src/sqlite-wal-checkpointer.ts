import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(
  `./sqlite-wal-checkpoint-worker${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

export interface WalCheckpoints {
  /** Rounds run, and the WAL's frames at the last one (all copied back when equal to `copied`). */
  readonly rounds: number;
  readonly frames: number;
  readonly copied: number;
  /** Rounds that failed (each retried by the next), and the last failure. */
  readonly failures: number;
  readonly lastFailure?: string;
}

/**
 * A SQLite file's WAL checkpoints on a thread of their own (see sqlite-wal-checkpoint-worker.ts),
 * for a writer whose connection has its automatic checkpoint turned off
 * (`PRAGMA wal_autocheckpoint = 0`).
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  #stats: WalCheckpoints = { rounds: 0, frames: 0, copied: 0, failures: 0 };

  constructor(file: string, synchronous: 'full' | 'normal', intervalMs: number) {
    this.#worker = new Worker(WORKER, { workerData: { file, synchronous, intervalMs } });
    this.#worker.on(
      'message',
      (message: { kind: string; log?: number; checkpointed?: number; message?: string }) => {
        if (message.kind === 'checkpointed') {
          this.#stats = {
            ...this.#stats,
            rounds: this.#stats.rounds + 1,
            frames: message.log ?? 0,
            copied: message.checkpointed ?? 0,
          };
        } else if (message.kind === 'failed') {
          this.#stats = { ...this.#stats, failures: this.#stats.failures + 1, lastFailure: message.message };
        }
      },
    );
    // A worker that died (it cannot open the file) leaves the WAL to grow until the next start,
    // whose checkpoint copies it back: nothing is lost. Counted, not thrown at the process.
    this.#worker.on('error', (error: Error) => {
      this.#stats = { ...this.#stats, failures: this.#stats.failures + 1, lastFailure: error.message };
    });
  }

  get stats(): WalCheckpoints {
    return this.#stats;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      const done = (message: { kind: string }) => {
        if (message.kind === 'closed') resolve();
      };
      this.#worker.on('message', done);
      this.#worker.once('exit', () => resolve());
    });
    this.#worker.postMessage({ kind: 'close' });
    await closed;
    await this.#worker.terminate();
  }
}
