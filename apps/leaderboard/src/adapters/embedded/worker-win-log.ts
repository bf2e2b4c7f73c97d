import { extname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WorkerChannel } from '@tessera/kit/worker';
import type { Period } from '../../core/period.ts';
import type { NewWin, Win } from '../../core/win.ts';
import type { AppendResult, WinLog } from '../../ports.ts';
import { WinLogReads } from './win-log-reads.ts';
import { ThreadedWinLogReads } from './threaded-win-log-reads.ts';
import { WalCheckpointer, type WalCheckpoints, type WalRestarts } from '@tessera/kit/sqlite';
import { ensureWinSchema } from './win-batch-writer.ts';
import { encodeWins, type EncodedWins } from './win-batch-codec.ts';

export type WinLogCommand =
  | {
      readonly kind: 'write';
      readonly wins: EncodedWins;
      /** Copy back what the checkpointer has not yet, before this batch: the WAL then restarts. */
      readonly restartWal: boolean;
    }
  | { readonly kind: 'close' };

/** A committed batch: one seq per win, in order, and the original of each match id seen before. */
export interface WrittenSeqs {
  readonly seqs: Float64Array<ArrayBuffer>;
  /** [index in the batch, the win first recorded]. */
  readonly originals: Array<[number, Win]>;
  /** Why the WAL copy-back asked before the batch failed, when it did (the batch still committed). */
  readonly copyBackFailure: string | undefined;
}

interface Pending {
  readonly win: NewWin;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

export interface WorkerWinLogOptions {
  /** wins.db; the worker opens its own write connection to it. */
  readonly file: string;
  readonly synchronous: 'full' | 'normal';
  /** A connection to the same file for the last seq, on the event loop (replays have a thread). */
  readonly reader: DatabaseSync;
  /** How often the WAL is copied back into the file (default 1 s). */
  readonly walCheckpointMs?: number;
  /** When a batch first copies back the WAL (default: the checkpointer's rule; tests may force it). */
  readonly walRestarts?: WalRestarts;
  /** Tests: every copy-back fails with this message, as a disk fault would. */
  readonly failCopyBacks?: string;
}

// The worker is a sibling module: .ts when run from source, .js once built.
const WORKER = new URL(`./win-log-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * The win log with its group commit on a worker thread. Appends queue on the event loop; one
 * batch at a time is with the worker, and whatever arrives while it commits (and fsyncs) forms
 * the next batch, so the batches grow with the load and the event loop never waits for the
 * disk. An append resolves only once the worker reports its batch committed: a 200 means the
 * win is on disk.
 */
export class WorkerWinLog implements WinLog {
  readonly #channel: WorkerChannel<WinLogCommand, WrittenSeqs>;
  readonly #checkpointer: WalCheckpointer;
  readonly #reads: WinLogReads;
  readonly #replays: ThreadedWinLogReads;
  readonly #periods: Set<Period>;
  #queued: Pending[] = [];
  /** A batch is with the worker, or about to be (scheduled for the end of this turn). */
  #busy = false;
  #closed = false;
  readonly #walRestarts: WalRestarts;

  constructor(options: WorkerWinLogOptions) {
    ensureWinSchema(options.reader);
    this.#reads = new WinLogReads(options.reader);
    this.#replays = new ThreadedWinLogReads(options.file);
    const periods = options.reader.prepare('SELECT period FROM win_periods').all() as Array<{
      period: string;
    }>;
    this.#periods = new Set(periods.map((row) => row.period));
    this.#channel = new WorkerChannel(
      new Worker(WORKER, {
        workerData: {
          file: options.file,
          synchronous: options.synchronous,
          failCopyBacks: options.failCopyBacks,
        },
      }),
      'win log writer',
    );
    this.#checkpointer = new WalCheckpointer(
      options.file,
      options.synchronous,
      options.walCheckpointMs ?? 1000,
    );
    this.#walRestarts = options.walRestarts ?? this.#checkpointer;
  }

  append(win: NewWin): Promise<AppendResult> {
    if (this.#closed) return Promise.reject(new Error('win log is closed'));
    const failed = this.#channel.failed;
    if (failed !== undefined) return Promise.reject(failed);
    return new Promise((resolve, reject) => {
      this.#queued.push({ win, resolve, reject });
      if (!this.#busy) {
        // Not at once: the appends of this turn of the event loop go together.
        this.#busy = true;
        setImmediate(() => this.#send());
      }
    });
  }

  /** How the WAL's checkpoints went (tests, diagnostics). */
  get walCheckpoints(): WalCheckpoints {
    return this.#checkpointer.stats;
  }

  /** A replay reads on a thread of its own, a batch ahead of the caller. */
  read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    return this.#replays.read(period, afterSeq);
  }

  periods(): Promise<Period[]> {
    return Promise.resolve([...this.#periods].sort());
  }

  lastSeq(period: Period): Promise<number> {
    return Promise.resolve(this.#reads.lastSeq(period));
  }

  players(period: Period): Promise<number> {
    return Promise.resolve(this.#reads.players(period));
  }

  /** Stops taking appends, waits for the queued ones to commit, and stops the worker. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while ((this.#busy || this.#queued.length > 0) && this.#channel.failed === undefined) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.#channel.close({ kind: 'close' });
    await this.#checkpointer.close();
  }

  /** Hands everything queued to the worker as one batch; the next goes when it answers. */
  #send(): void {
    const batch = this.#queued;
    this.#queued = [];
    if (batch.length === 0) {
      this.#busy = false;
      return;
    }
    const wins = encodeWins(batch.map((pending) => pending.win));
    const restartWal = this.#walRestarts.takeRestart();
    this.#channel.request({ kind: 'write', wins, restartWal }, [wins.numbers.buffer]).then(
      (written) => {
        if (written.copyBackFailure !== undefined) this.#walRestarts.copyBackFailed(written.copyBackFailure);
        this.#settle(batch, written);
        this.#next();
      },
      (error: unknown) => {
        for (const pending of batch) pending.reject(error);
        this.#next();
      },
    );
  }

  /** While a batch committed, the next one gathered: it goes now. */
  #next(): void {
    if (this.#queued.length > 0) this.#send();
    else this.#busy = false;
  }

  #settle(batch: readonly Pending[], { seqs, originals }: WrittenSeqs): void {
    const replayed = new Map(originals);
    batch.forEach((pending, i) => {
      const original = replayed.get(i);
      if (original !== undefined) return pending.resolve({ win: original, duplicate: true });
      this.#periods.add(pending.win.period);
      pending.resolve({ win: { ...pending.win, seq: seqs[i]! }, duplicate: false });
    });
  }
}
