import type { Redis } from 'ioredis';
import type { Period } from '../../core/period.ts';
import type { ShardedKeys } from './sharded-context.ts';

/** How long a process trusts the bounds it read (a stale copy only misplaces, see inShardOrder). */
const BOUNDS_TTL_MS = 1_000;

/**
 * Each period's bounds (descending encoded scores, one fewer than shards), kept on shard 0 and
 * cached for a moment; the initial ones stand until the first rebalance publishes its own.
 */
export class ShardedBounds {
  readonly #first: Redis;
  readonly #keys: ShardedKeys;
  readonly #initial: readonly number[];
  readonly #cache = new Map<Period, { readonly bounds: readonly number[]; readonly until: number }>();

  constructor(first: Redis, keys: ShardedKeys, initial: readonly number[]) {
    this.#first = first;
    this.#keys = keys;
    this.#initial = initial;
  }

  async of(period: Period): Promise<readonly number[]> {
    const cached = this.#cache.get(period);
    if (cached !== undefined && cached.until > Date.now()) return cached.bounds;
    const raw = await this.#first.get(this.#keys.of(period, 'bounds'));
    const bounds = raw === null ? this.#initial : (JSON.parse(raw) as number[]);
    this.#cache.set(period, { bounds, until: Date.now() + BOUNDS_TTL_MS });
    return bounds;
  }

  /** Writes the bounds a rebalance picked, for every process to place by. */
  async publish(period: Period, bounds: readonly number[]): Promise<void> {
    await this.#first.set(this.#keys.of(period, 'bounds'), JSON.stringify(bounds));
    this.#cache.set(period, { bounds, until: Date.now() + BOUNDS_TTL_MS });
  }

  forget(period: Period): void {
    this.#cache.delete(period);
  }
}
