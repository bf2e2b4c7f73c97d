import { TOP_LIST_SIZE } from './core/standing.ts';

interface Cached<T> {
  readonly limit: number;
  readonly entries: readonly T[];
}

/**
 * The top list of each period, kept between reads: the seed's hot spot (every client asks for the
 * top 10, far more often than the top changes). A win invalidates a period's list only when it
 * changes it: when the player's rank after the win is within the cached list's length (with
 * shared ranks a player who ties the last cached score gets that rank, so the test holds for
 * ties too). A player ranked below the list cannot have passed anyone in it.
 */
export class TopListCache<T = unknown> {
  readonly #lists = new Map<string, Cached<T>>();
  /** Bumped by every invalidation: a list read before one must not be cached after it. */
  #version = 0;

  /** Take before reading a list to cache, give to `set`. */
  get version(): number {
    return this.#version;
  }

  get(period: string, limit: number): readonly T[] | undefined {
    const cached = this.#lists.get(period);
    return cached?.limit === limit ? cached.entries : undefined;
  }

  /** Only the spec's top list (and shorter ones) are kept: deeper pages are rare and would churn. */
  set(period: string, limit: number, entries: readonly T[], readAt: number): void {
    if (limit <= TOP_LIST_SIZE && readAt === this.#version) this.#lists.set(period, { limit, entries });
  }

  /** A player of `period` now has `rank`. */
  changed(period: string, rank: number): void {
    const cached = this.#lists.get(period);
    // A list shorter than its limit holds every player: any win may add to it.
    if (cached !== undefined && (rank <= cached.limit || cached.entries.length < cached.limit)) {
      this.#lists.delete(period);
    }
    // Even with nothing cached, a list being read right now must not be kept: it may predate this.
    if (cached !== undefined || rank <= TOP_LIST_SIZE) this.#version++;
  }

  clear(): void {
    this.#lists.clear();
    this.#version++;
  }
}
