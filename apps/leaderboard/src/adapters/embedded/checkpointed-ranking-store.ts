import type { Logger } from '@tessera/kit';
import type { Period } from '../../core/period.ts';
import type { TieBreak } from '../../core/standing.ts';
import { CheckpointWriter } from './checkpoint-writer.ts';
import { MemoryRankingStore } from './memory-ranking-store.ts';
import type { SqliteRankingCheckpoints } from './sqlite-ranking-checkpoints.ts';

export interface CheckpointedRankingOptions {
  readonly tieBreak: TieBreak;
  /** Read at open: the saved rankings. */
  readonly checkpoints: SqliteRankingCheckpoints;
  /** The same file, written from then on by a worker thread. */
  readonly file: string;
  readonly synchronous: 'full' | 'normal';
  readonly intervalMs: number;
  readonly logger: Logger;
}

/**
 * The in-memory rankings, saved every `intervalMs` (and at close) to ranking.db so that a restart
 * replays only the wins after the last save. At open each saved period is restored; the service's
 * catch-up then replays the log from each ranking's `appliedSeq`.
 */
export class CheckpointedRankingStore extends MemoryRankingStore {
  readonly #writer: CheckpointWriter;
  readonly #timer: NodeJS.Timeout;
  readonly #logger: Logger;
  /** Saving and dropping both touch the saved rankings: one at a time. */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: CheckpointedRankingOptions) {
    super(options.tieBreak);
    for (const period of options.checkpoints.periods()) {
      this.adopt(period, options.checkpoints.load(period, options.tieBreak));
    }
    this.#logger = options.logger;
    this.#writer = new CheckpointWriter(options.file, options.synchronous);
    this.#timer = setInterval(() => {
      this.checkpoint().catch((error: unknown) => this.#logger.error({ err: error }, 'checkpoint failed'));
    }, options.intervalMs);
    this.#timer.unref();
  }

  /** Saves the players changed since the last save, for every live period. */
  checkpoint(): Promise<void> {
    return this.#serial(async () => {
      for (const [period, ranking] of this.live) {
        const written = await this.#writer.save(period, ranking);
        if (written > 0) this.#logger.debug({ period, written }, 'ranking checkpoint saved');
      }
    });
  }

  override async drop(period: Period): Promise<void> {
    await super.drop(period);
    await this.#serial(() => this.#writer.discard(period));
  }

  override async close(): Promise<void> {
    clearInterval(this.#timer);
    try {
      await this.checkpoint();
    } finally {
      await this.#writer.close();
    }
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(task);
    this.#chain = run.catch(() => undefined);
    return run;
  }
}
