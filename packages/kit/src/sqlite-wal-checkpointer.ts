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
}

/**
 * A SQLite file's WAL checkpoints on a thread of their own (see sqlite-wal-checkpoint-worker.ts),
 * for a writer whose connection has its automatic checkpoint turned off
 * (`PRAGMA wal_autocheckpoint = 0`).
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  #stats: WalCheckpoints = { rounds: 0, frames: 0, copied: 0 };

  constructor(file: string, synchronous: 'full' | 'normal', intervalMs: number) {
    this.#worker = new Worker(WORKER, { workerData: { file, synchronous, intervalMs } });
    this.#worker.on('message', (message: { kind: string; log?: number; checkpointed?: number }) => {
      if (message.kind !== 'checkpointed') return;
      this.#stats = {
        rounds: this.#stats.rounds + 1,
        frames: message.log ?? 0,
        copied: message.checkpointed ?? 0,
      };
    });
    // A failed round is the next round's to retry; a worker that died leaves the WAL to grow
    // until the next start, whose checkpoint copies it back: nothing is lost either way.
    this.#worker.on('error', () => undefined);
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
