import type { Redis } from 'ioredis';
import type { Period } from '../../core/period.ts';

/** What the parts of the sharded ranking (placement, reads, leases) share. */
export interface ShardedContext {
  /** The instances, the first holding the highest scores; each is also home to some players. */
  readonly shards: readonly Redis[];
  /** How long a lease (and a move) may last before another process takes it over. */
  readonly leaseMs: number;
  readonly keys: ShardedKeys;
  /** The bounds to place by (cached for a moment: a stale copy only misplaces). */
  boundsOf(period: Period): Promise<readonly number[]>;
}

/** Every key of a period shares the hash tag `{<period>}`. */
export class ShardedKeys {
  readonly #prefix: string;

  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  get periods(): string {
    return `${this.#prefix}periods`;
  }

  of(period: Period, part: string): string {
    return `${this.#prefix}{${period}}:${part}`;
  }

  /** Of HOME_APPLY (shard-scripts.ts). */
  home(period: Period): string[] {
    return [
      this.of(period, 'score'),
      this.of(period, 'applied'),
      this.of(period, 'meta'),
      this.of(period, 'lease'),
      this.of(period, 'at'),
      this.periods,
      this.of(period, 'fencing'),
      this.of(period, 'rank'),
      this.of(period, 'fence'),
      this.of(period, 'ctl'),
      this.of(period, 'steps'),
    ];
  }

  /** Of HOME_LEASE and HOME_LAPSED (HOME_RELEASE takes the first three). */
  lease(period: Period): string[] {
    return [
      this.of(period, 'score'),
      this.of(period, 'lease'),
      this.of(period, 'at'),
      this.of(period, 'fencing'),
    ];
  }

  /** Of the range shards' write scripts (shard-range-scripts.ts). */
  range(period: Period): string[] {
    return [
      this.of(period, 'rank'),
      this.of(period, 'ctl'),
      this.of(period, 'moving'),
      this.of(period, 'fence'),
      this.of(period, 'steps'),
    ];
  }

  /** Of RANGE_PRUNE. */
  prune(period: Period): string[] {
    return [this.of(period, 'ctl'), this.of(period, 'fence')];
  }

  /** Of RANGE_LOOK. */
  look(period: Period): string[] {
    return [
      this.of(period, 'rank'),
      this.of(period, 'ctl'),
      this.of(period, 'moving'),
      this.of(period, 'steps'),
    ];
  }

  /** Every key of a period, on any instance. */
  all(period: Period): string[] {
    return [
      'score',
      'applied',
      'meta',
      'lease',
      'fencing',
      'at',
      'rank',
      'ctl',
      'moving',
      'fence',
      'steps',
      'bounds',
    ].map((part) => this.of(period, part));
  }
}
