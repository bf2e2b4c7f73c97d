import type { Redis } from 'ioredis';
import type { Period } from '../../core/period.ts';
import type { Standing, TieBreak } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import type { RankingStore } from '../../ports.ts';
import { pagedStandings } from './paged-standings.ts';
import { SEQ_SPAN } from './score-encoding.ts';
import { ShardedBounds } from './sharded-bounds.ts';
import { ShardedKeys, type ShardedContext } from './sharded-context.ts';
import { pruneFence } from './sharded-fence.ts';
import { applyBatch, applyWin, type HomeApplyParts } from './sharded-home-apply.ts';
import { releaseLeases } from './sharded-leases.ts';
import { moveBounds, recover, repair, takeOver } from './sharded-maintenance.ts';
import { place } from './sharded-placement.ts';
import { PendingReleases } from './sharded-releases.ts';
import { RETRY, ShardedReads } from './sharded-reads.ts';

/** Far longer than a placement takes; a placer that dies holding it delays its player this long. */
const LEASE_MS = 10_000;
/** Far below a lease, and long enough under load for the next home script to carry a release. */
const RELEASE_DELAY_MS = 2;
/**
 * How old a token must be for the range shards to refuse it outright and forget its `fence`
 * fields: far above any lease, any placement and any skew between the instances' clocks.
 */
const FENCE_HORIZON_MS = 3_600_000;

export interface ShardedRankingStoreOptions {
  readonly tieBreak: TieBreak;
  /** Prefix of every key (`lb:`; tests use their own). */
  readonly keyPrefix: string;
  /** Bounds in points (descending, one fewer than shards) used until the first rebalance. */
  readonly initialBounds?: readonly number[];
  /** How long a lease (and a move) lasts before another process may take it over (10 s). */
  readonly leaseMs?: number;
  /** Tokens older than this are refused and their `fence` fields pruned (1 hour). */
  readonly fenceHorizonMs?: number;
  /**
   * How long a written entry's lease waits for the next home script to carry it back before it
   * is given back by a round trip of its own (2 ms).
   */
  readonly releaseDelayMs?: number;
}

/**
 * The ranking over N Redis instances, split by score range (LEADERBOARD_REDIS_SHARDS): shard 0
 * holds the highest scores, a rank is the count of higher entries over every shard plus one. A
 * player's wins are applied on its home instance (hash of the id) — totals, watermark and applied
 * seqs there make applying idempotent — and its entry is then written to the range shard of its
 * score by the one process holding the player's lease (sharded-placement.ts); writes carry the
 * lease's token, which fences off a holder that outlived its lease. Readers (sharded-reads.ts)
 * retry while a move is in flight and take over one whose owner died. docs/architecture.md
 * ("Past one Redis") gives the argument.
 */
export class ShardedRankingStore implements RankingStore {
  readonly #context: ShardedContext;
  readonly #reads: ShardedReads;
  readonly #shards: readonly Redis[];
  readonly #keys: ShardedKeys;
  readonly #bounds: ShardedBounds;
  readonly #fenceHorizonMs: number;
  readonly #releases: PendingReleases;
  /** Applying wins on their homes (sharded-home-apply.ts). */
  readonly #apply: HomeApplyParts;

  constructor(shards: readonly Redis[], options: ShardedRankingStoreOptions) {
    if (shards.length === 0) throw new Error('a sharded ranking needs at least one Redis');
    this.#shards = shards;
    this.#keys = new ShardedKeys(options.keyPrefix);
    const earliest = options.tieBreak === 'earliest' ? '1' : '0';
    const unit = options.tieBreak === 'earliest' ? SEQ_SPAN : 1;
    this.#bounds = new ShardedBounds(
      shards[0]!,
      this.#keys,
      (options.initialBounds ?? []).slice(0, shards.length - 1).map((p) => p * unit),
    );
    this.#fenceHorizonMs = options.fenceHorizonMs ?? FENCE_HORIZON_MS;
    if (!(this.#fenceHorizonMs > 0)) throw new Error('the fence horizon must be positive');
    this.#context = {
      shards,
      leaseMs: options.leaseMs ?? LEASE_MS,
      keys: this.#keys,
      boundsOf: (period) => this.#bounds.of(period),
    };
    this.#reads = new ShardedReads(this.#context, earliest === '1', (period, users) =>
      takeOver(this.#context, period, users),
    );
    this.#releases = new PendingReleases(
      options.releaseDelayMs ?? RELEASE_DELAY_MS,
      async (period, released) => {
        const again = await releaseLeases(this.#context, period, released);
        if (again.length > 0)
          await place(this.#context, period, again, (written) => this.#releases.add(period, written));
      },
    );
    this.#apply = { context: this.#context, reads: this.#reads, releases: this.#releases, earliest };
  }

  /** Two round trips when the player stays on its shard (see applyWin in sharded-home-apply.ts). */
  applyWin(win: Win): Promise<Standing> {
    return applyWin(this.#apply, win);
  }

  applyBatch(wins: readonly Win[]): Promise<void> {
    return applyBatch(this.#apply, wins);
  }

  async appliedSeq(period: Period): Promise<number> {
    const marks = await Promise.all(
      this.#shards.map((r) => r.hget(this.#keys.of(period, 'meta'), 'watermark')),
    );
    return Math.min(...marks.map((m) => Number(m ?? 0)));
  }

  async standing(period: Period, userId: string): Promise<Standing | undefined> {
    return this.#reads.consistent(async () => {
      const looks = await this.#reads.looks(period, '+inf', userId);
      if (looks === RETRY) return RETRY;
      const mine = looks.find((look) => look.mine !== undefined)?.mine;
      if (mine === undefined) return undefined;
      const rank = await this.#reads.rankOf(period, mine, userId, looks);
      return rank === RETRY ? RETRY : { userId, score: this.#reads.total(mine), rank };
    });
  }

  async top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    if (limit <= 0) return [];
    return this.#reads.consistent(async () => {
      const looks = await this.#reads.looks(period, '+inf', '');
      if (looks === RETRY) return RETRY;
      return this.#reads.ranked(
        period,
        looks,
        offset,
        limit,
        await this.#reads.page(period, looks, offset, limit),
      );
    });
  }

  async around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    return this.#reads.consistent(async () => {
      const looks = await this.#reads.looks(period, '+inf', userId);
      if (looks === RETRY) return RETRY;
      const mine = looks.find((look) => look.mine !== undefined)?.mine;
      if (mine === undefined) return undefined;
      const position = await this.#reads.position(period, mine, userId);
      const from = Math.max(0, position - n);
      const limit = position + n + 1 - from;
      return this.#reads.ranked(
        period,
        looks,
        from,
        limit,
        await this.#reads.page(period, looks, from, limit),
      );
    });
  }

  async periods(): Promise<Period[]> {
    const all = await Promise.all(this.#shards.map((r) => r.smembers(this.#keys.periods)));
    return [...new Set(all.flat())].sort();
  }

  standings(period: Period): AsyncIterable<readonly Standing[]> {
    return pagedStandings((offset, limit) => this.top(period, offset, limit));
  }

  async drop(period: Period): Promise<void> {
    await Promise.all(
      this.#shards.map(async (r) => {
        const results = await r
          .multi()
          .del(...this.#keys.all(period))
          .srem(this.#keys.periods, period)
          .exec();
        const failed = results?.find(([error]) => error !== null);
        if (results === null || failed !== undefined) throw failed?.[0] ?? new Error('transaction aborted');
      }),
    );
    this.#bounds.forget(period);
  }

  async players(period: Period): Promise<number> {
    const counts = await Promise.all(this.#shards.map((r) => r.hlen(this.#keys.of(period, 'score'))));
    return counts.reduce((sum, c) => sum + c, 0);
  }

  /** Gives back now the leases waiting for a next home script (see applyWin). */
  settle(): Promise<void> {
    return this.#releases.flush();
  }

  /** Gives back the leases still held; the connections belong to whoever opened them. */
  close(): Promise<void> {
    return this.settle();
  }

  /** Writes every entry again from its home's total (see repair in sharded-maintenance.ts). */
  repair(period: Period): Promise<void> {
    return repair(this.#context, period);
  }

  /** Finishes the moves and leases dead or stalled processes left (sharded-maintenance.ts). */
  recover(period: Period): Promise<void> {
    return recover(this.#context, this.#reads, period);
  }

  /**
   * Forgets the `fence` fields older than the horizon, raising each range shard's floor first so
   * that a token that old is refused all the same (docs/architecture.md, "Past one Redis"). Run
   * by the rebalance; answers the fields deleted.
   */
  pruneFence(period: Period): Promise<number> {
    return pruneFence(this.#context, period, this.#fenceHorizonMs);
  }

  /**
   * Moves the bounds so that each shard holds an equal share of the period's players, then moves
   * the players now out of their shard's range (those whose lease another process holds are left
   * to it). Safe to run beside live traffic and in several processes at once.
   */
  async rebalance(period: Period): Promise<readonly number[]> {
    await this.recover(period);
    await this.pruneFence(period);
    return moveBounds(this.#context, this.#reads, this.#bounds, period);
  }
}
