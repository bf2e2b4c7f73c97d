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
  /** Rounds that did not run: another checkpoint (the writer's copy-back) held the WAL. */
  readonly busy: number;
  /**
   * Rounds in a row, up to the last, that copied less than they found: a reader's snapshot holds
   * the rest, and while it does no restart is asked. With `largestFrames` (the most frames a round
   * found), what shows a WAL pinned by a long reader.
   */
  readonly pinnedRounds: number;
  readonly largestFrames: number;
  /** Rounds that failed (each retried by the next), and the last failure (a round's or a copy-back's). */
  readonly failures: number;
  readonly lastFailure?: string;
  /** The writer's copy-backs (`walCopyBack`) that failed for another reason than a lock held a moment. */
  readonly copyBackFailures: number;
}

/** About 4 MiB of WAL: a second or two of a busy writer's commits. */
const RESTART_WAL_FRAMES = 1024;

/** Where the writer's copy-back reports a failure (see `walCopyBack`). */
export interface WalCopyBackFailures {
  copyBackFailed(message: string): void;
}

/**
 * When a writer should copy back the WAL's last frames before its next transaction
 * (`walCopyBack`), so that the transaction starts the WAL over, and where it tells a copy-back
 * that failed. Tests may force the restarts.
 */
export interface WalRestarts extends WalCopyBackFailures {
  takeRestart(): boolean;
}

/**
 * A SQLite file's WAL checkpoints on a thread of their own (see sqlite-wal-checkpoint-worker.ts),
 * for a writer whose connection has its automatic checkpoint turned off
 * (`PRAGMA wal_autocheckpoint = 0`).
 *
 * Its rounds alone do not keep the WAL short under steady writes. SQLite starts the WAL over only
 * when a write transaction begins with every frame copied back; a writer that keeps committing
 * begins each batch while a round is copying and commits after it, so every round leaves the
 * frames of the batch in flight and the WAL grows without end (the leaderboard's win log: 25 MB in
 * 12 s at 1,000 appends/s). Hence `takeRestart()`: once a round has copied back a long WAL whole,
 * the writer copies the few frames committed since on its own connection (`walCopyBack`, one more
 * fsync of the database file) and its next transaction starts the WAL over.
 *
 * The WAL levels off so only without long readers. A reader that keeps a snapshot open (a long
 * read transaction: a report, a backup, a slow replay) pins the WAL: no round copies past its
 * snapshot, so none copies the WAL whole, no restart is asked, and the WAL grows for as long as
 * the reader stays (SQLite cannot start a WAL over under a reader). The next round after it ends
 * copies the WAL whole and the restart follows. The stats show it: `pinnedRounds`, `largestFrames`.
 */
export class WalCheckpointer implements WalRestarts {
  readonly #worker: Worker;
  readonly #restartFrames: number;
  #stats: WalCheckpoints = {
    rounds: 0,
    frames: 0,
    copied: 0,
    busy: 0,
    pinnedRounds: 0,
    largestFrames: 0,
    failures: 0,
    copyBackFailures: 0,
  };
  /** The round after which the writer was last asked to restart the WAL. */
  #restartedAfter = 0;
  readonly #roundListeners: Array<() => void> = [];

  /** `restartFrames`: the WAL's length (frames) from which a round asks for a restart. */
  constructor(
    file: string,
    synchronous: 'full' | 'normal',
    intervalMs: number,
    restartFrames = RESTART_WAL_FRAMES,
  ) {
    this.#restartFrames = restartFrames;
    this.#worker = new Worker(WORKER, { workerData: { file, synchronous, intervalMs } });
    this.#worker.on(
      'message',
      (message: { kind: string; log?: number; checkpointed?: number; message?: string }) => {
        if (message.kind === 'checkpointed') {
          const frames = message.log ?? 0;
          const copied = message.checkpointed ?? 0;
          this.#stats = {
            ...this.#stats,
            rounds: this.#stats.rounds + 1,
            frames,
            copied,
            pinnedRounds: copied < frames ? this.#stats.pinnedRounds + 1 : 0,
            largestFrames: Math.max(this.#stats.largestFrames, frames),
          };
          for (const listener of this.#roundListeners) listener();
        } else if (message.kind === 'busy') {
          this.#stats = { ...this.#stats, busy: this.#stats.busy + 1 };
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

  /**
   * Calls `listener` after each round, its stats in: where a writer that cannot ask `takeRestart`
   * before its batches (one on another thread) is told to restart, at once and never twice a round.
   */
  onRound(listener: () => void): void {
    this.#roundListeners.push(listener);
  }

  /**
   * Whether the writer should restart the WAL before its next batch; a yes is taken (the next call
   * in the same round says no): at most once a round, after a round that copied a long WAL whole.
   */
  takeRestart(): boolean {
    const { rounds, frames, copied } = this.#stats;
    if (rounds === this.#restartedAfter || frames < this.#restartFrames || copied < frames) return false;
    this.#restartedAfter = rounds;
    return true;
  }

  /**
   * A copy-back the writer could not do (`walCopyBack(db, checkpointer)`; a writer on a thread of
   * its own, `threadWalCopyBack`, passes the message back with its batch's answer).
   */
  copyBackFailed(message: string): void {
    this.#stats = {
      ...this.#stats,
      copyBackFailures: this.#stats.copyBackFailures + 1,
      lastFailure: message,
    };
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
