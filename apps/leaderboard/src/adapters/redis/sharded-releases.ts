import type { Period } from '../../core/period.ts';
import type { Released } from './sharded-leases.ts';

/**
 * Leases given back with the next step instead of a round trip of their own: the next home script
 * this process runs on the lease's home carries them (HOME_APPLY), or, when none comes within
 * `delayMs`, `flush` gives them back. Only leases whose entries are written get here, so a process
 * dying with some pending leaves only lapsed leases, which their next taker scrubs.
 */
export class PendingReleases {
  readonly #pending = new Map<Period, Map<number, Released[]>>();
  readonly #flush: (period: Period, released: readonly Released[]) => Promise<void>;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<unknown> = Promise.resolve();

  constructor(delayMs: number, flush: (period: Period, released: readonly Released[]) => Promise<void>) {
    this.#delayMs = delayMs;
    this.#flush = flush;
  }

  add(period: Period, released: readonly Released[]): void {
    if (released.length === 0) return;
    let homes = this.#pending.get(period);
    if (homes === undefined) this.#pending.set(period, (homes = new Map<number, Released[]>()));
    for (const r of released) {
      const list = homes.get(r.home);
      if (list === undefined) homes.set(r.home, [r]);
      else list.push(r);
    }
    // Unreferenced: a process exiting without close() leaves lapsed leases, which are recovered.
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#flushing = this.flush().catch(() => undefined);
    }, this.#delayMs).unref();
  }

  /** The leases of `home` to give back with the script about to run there. */
  take(period: Period, home: number): Released[] {
    const homes = this.#pending.get(period);
    const list = homes?.get(home) ?? [];
    homes?.delete(home);
    if (homes?.size === 0) this.#pending.delete(period);
    return list;
  }

  /**
   * Gives back every pending lease now, after what a timer's flush is doing, and again the leases
   * of the players it placed again (their totals moved on), until none is left.
   */
  async flush(): Promise<void> {
    await this.#flushing;
    while (this.#pending.size > 0) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      const all = [...this.#pending].map(([period, homes]) => ({ period, list: [...homes.values()].flat() }));
      this.#pending.clear();
      await Promise.all(all.map(({ period, list }) => this.#flush(period, list)));
    }
  }
}

/** HOME_APPLY's release arguments: their count, then user, token, encoded placed, shard each. */
export function releaseArgs(released: readonly Released[]): (string | number)[] {
  return [released.length, ...released.flatMap((r) => [r.userId, r.token, r.encoded, r.to])];
}
