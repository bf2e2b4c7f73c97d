import type { Redis } from 'ioredis';
import type { Period } from '../../core/period.ts';
import type { Standing, TieBreak } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import { leaderboardErrors } from '../../errors.ts';
import type { RankingStore } from '../../ports.ts';
import { LuaScript } from './lua-script.ts';
import { pagedStandings } from './paged-standings.ts';
import { SEQ_SPAN } from './score-encoding.ts';
import { homeShard } from './shard-layout.ts';
import { HOME_APPLY } from './shard-scripts.ts';
import { ShardedKeys, type ShardedContext } from './sharded-context.ts';
import { pruneFence } from './sharded-fence.ts';
import {
  keptLeases,
  leased,
  releaseLeases,
  takeLapsed,
  takeLeases,
  type Placement,
} from './sharded-leases.ts';
import { place } from './sharded-placement.ts';
import { PendingReleases, releaseArgs } from './sharded-releases.ts';
import { RETRY, ShardedReads, still, type Look, type Retry } from './sharded-reads.ts';

const homeApply = new LuaScript(HOME_APPLY);

const APPLY_CHUNK = 1_000;
/** Far longer than a placement takes; a placer that dies holding it delays its player this long. */
const LEASE_MS = 10_000;
/** How long a process trusts the bounds it read (a stale copy only misplaces, see inShardOrder). */
const BOUNDS_TTL_MS = 1_000;
const REBALANCE_BATCH = 1_000;
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
  readonly #earliest: '0' | '1';
  readonly #initialBounds: readonly number[];
  readonly #fenceHorizonMs: number;
  readonly #bounds = new Map<Period, { readonly bounds: readonly number[]; readonly until: number }>();
  readonly #releases: PendingReleases;

  constructor(shards: readonly Redis[], options: ShardedRankingStoreOptions) {
    if (shards.length === 0) throw new Error('a sharded ranking needs at least one Redis');
    this.#shards = shards;
    this.#keys = new ShardedKeys(options.keyPrefix);
    this.#earliest = options.tieBreak === 'earliest' ? '1' : '0';
    const unit = options.tieBreak === 'earliest' ? SEQ_SPAN : 1;
    this.#initialBounds = (options.initialBounds ?? []).slice(0, shards.length - 1).map((p) => p * unit);
    this.#fenceHorizonMs = options.fenceHorizonMs ?? FENCE_HORIZON_MS;
    if (!(this.#fenceHorizonMs > 0)) throw new Error('the fence horizon must be positive');
    this.#context = {
      shards,
      leaseMs: options.leaseMs ?? LEASE_MS,
      keys: this.#keys,
      boundsOf: (period) => this.#boundsOf(period),
    };
    this.#reads = new ShardedReads(this.#context, this.#earliest === '1', (period, users) =>
      this.#takeOver(period, users),
    );
    this.#releases = new PendingReleases(
      options.releaseDelayMs ?? RELEASE_DELAY_MS,
      async (period, released) => {
        const again = await releaseLeases(this.#context, period, released);
        if (again.length > 0)
          await place(this.#context, period, again, (written) => this.#releases.add(period, written));
      },
    );
  }

  /**
   * Two round trips when the player stays on its shard: the home script beside a first look at
   * every shard (a read needs only its epochs, and any time before the second look will do), then
   * the write beside the second look (the rank counts the other players above the new total, so
   * it needs no order with the player's own entry). The lease goes back with the next home script
   * this process runs there (PendingReleases), which also places again, beside its own player,
   * those whose totals moved on meanwhile. A move adds its two later steps.
   */
  async applyWin(win: Win): Promise<Standing> {
    const home = homeShard(win.userId, this.#shards.length);
    const bounds = (await this.#boundsOf(win.period)).join(',');
    let early: Promise<Look[] | Retry> | undefined = this.#reads
      .looks(win.period, '+inf', '')
      .catch((): Retry => RETRY);
    const releasing = this.#releases.take(win.period, home);
    const reply = (await homeApply
      .run(this.#shards[home]!, this.#keys.home(win.period), [
        this.#earliest,
        win.period,
        1,
        0,
        0,
        this.#context.leaseMs,
        bounds,
        home,
        ...releaseArgs(releasing),
        win.seq,
        win.userId,
        win.points,
      ])
      .catch((error: unknown) => {
        // The wins go first in the script: on an error the leases are as they were.
        this.#releases.add(win.period, releasing);
        return codedScoreRange(error);
      })) as HomeReply;
    const encoded = Number(reply[0]);
    const placements = [...keptLeases(releasing, reply[1]), ...leased(home, reply.slice(2) as string[])];
    const [, rank] = await Promise.all([
      place(this.#context, win.period, placements, (written) => this.#releases.add(win.period, written)),
      this.#reads.consistent(async () => {
        const before = await (early ?? this.#reads.looks(win.period, '+inf', ''));
        early = undefined;
        return before === RETRY ? RETRY : this.#reads.rankOf(win.period, encoded, win.userId, before);
      }),
    ]);
    return { userId: win.userId, score: this.#reads.total(encoded), rank };
  }

  async applyBatch(wins: readonly Win[]): Promise<void> {
    const byPeriod = new Map<Period, Win[]>();
    for (const win of wins) {
      const list = byPeriod.get(win.period);
      if (list === undefined) byPeriod.set(win.period, [win]);
      else list.push(win);
    }
    for (const [period, list] of byPeriod) {
      for (let i = 0; i < list.length; i += APPLY_CHUNK) {
        const chunk = list.slice(i, i + APPLY_CHUNK);
        const highest = chunk.reduce((max, w) => Math.max(max, w.seq), 0);
        const bounds = (await this.#boundsOf(period)).join(',');
        const releasing = this.#shards.map((_, home) => this.#releases.take(period, home));
        const perHome = this.#shards.map((_, home): (string | number)[] => [
          this.#earliest,
          period,
          0,
          1,
          highest,
          this.#context.leaseMs,
          bounds,
          home,
          ...releaseArgs(releasing[home]!),
        ]);
        for (const w of chunk)
          perHome[homeShard(w.userId, this.#shards.length)]!.push(w.seq, w.userId, w.points);
        const replies = await Promise.allSettled(
          perHome.map((args, home) => homeApply.run(this.#shards[home]!, this.#keys.home(period), args)),
        );
        // Every home's outcome is settled before any failure is thrown: a failed home's releases
        // wait for the next script there (its wins go first: its leases are as they were), and
        // the homes that applied still place what they leased and gave back.
        const placements: Placement[] = [];
        let failure: { reason: unknown } | undefined;
        replies.forEach((result, home) => {
          if (result.status === 'rejected') {
            this.#releases.add(period, releasing[home]!);
            failure ??= { reason: result.reason };
            return;
          }
          const reply = result.value as HomeReply;
          placements.push(
            ...keptLeases(releasing[home]!, reply[1]),
            ...leased(home, reply.slice(2) as string[]),
          );
        });
        await place(this.#context, period, placements);
        if (failure !== undefined) codedScoreRange(failure.reason);
      }
    }
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
    this.#bounds.delete(period);
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

  /**
   * After the period was replayed onto instances of which one had come back empty: every player's
   * entry is written again from its home's total, on its range shard alone. The replay only
   * places players whose totals it changed, so an entry that lived on the emptied instance would
   * otherwise stay missing, and one whose location record was lost could be left on two shards.
   * Players whose lease another process holds are that process's to place.
   */
  async repair(period: Period): Promise<void> {
    const scoreKey = this.#keys.of(period, 'score');
    for (let home = 0; home < this.#shards.length; home++) {
      let cursor = '0';
      do {
        const [next, flat] = await this.#shards[home]!.hscan(scoreKey, cursor, 'COUNT', REBALANCE_BATCH);
        cursor = next;
        const users = flat.filter((_, i) => i % 2 === 0);
        if (users.length === 0) continue;
        const taken = await takeLeases(this.#context, period, users, false);
        if (taken.length > 0)
          await place(
            this.#context,
            period,
            taken.map((p) => ({ ...p, scrub: true })),
          );
      } while (cursor !== '0');
    }
  }

  /**
   * Finishes what dead or stalled processes left: the moves past their deadline (taken over, see
   * #takeOver) and the leases that lapsed without being given back (the entry may be stale or on
   * two shards: scrubbed from the total). Run by the rebalance, so by every process's timer.
   */
  async recover(period: Period): Promise<void> {
    await this.#reads.looks(period, '+inf', '');
    const lapsed = await takeLapsed(this.#context, period);
    if (lapsed.length > 0) await place(this.#context, period, lapsed);
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
    const bounds = await this.#reads.consistent(async () => {
      const looks = await this.#reads.looks(period, '+inf', '');
      if (looks === RETRY || !still(looks)) return RETRY;
      const total = looks.reduce((sum, look) => sum + look.count, 0);
      const picked: number[] = [];
      for (let i = 1; i < this.#shards.length; i++) {
        const at = Math.max(0, Math.ceil((total * i) / this.#shards.length) - 1);
        const [entry] = await this.#reads.page(period, looks, at, 1);
        const previous = picked.at(-1);
        if (entry !== undefined && (previous === undefined || entry.encoded < previous))
          picked.push(entry.encoded);
      }
      // No move between the looks; players joining only shift the positions picked a little.
      const verify = await this.#reads.looks(period, '+inf', '', { looks, above: -1 });
      return verify === RETRY || !still(verify) || verify.some((look) => look.changed) ? RETRY : picked;
    });
    await this.#shards[0]!.set(this.#keys.of(period, 'bounds'), JSON.stringify(bounds));
    this.#bounds.set(period, { bounds, until: Date.now() + BOUNDS_TTL_MS });
    const rank = this.#keys.of(period, 'rank');
    for (let shard = 0; shard < this.#shards.length; shard++) {
      // A shard past the bounds (fewer distinct scores than shards) has no range: all of it moves.
      const empty = shard > bounds.length;
      const upper = empty ? '-inf' : shard === 0 ? undefined : bounds[shard - 1];
      const lower = empty ? undefined : bounds[shard];
      const instance = this.#shards[shard]!;
      // Bounded: each round moves what it leases; what stays leased elsewhere is its placer's.
      for (let round = 0; round < 1_000; round++) {
        const out = [
          ...(upper === undefined
            ? []
            : await instance.zrangebyscore(rank, upper, '+inf', 'LIMIT', 0, REBALANCE_BATCH)),
          ...(lower === undefined
            ? []
            : await instance.zrangebyscore(rank, '-inf', `(${lower}`, 'LIMIT', 0, REBALANCE_BATCH)),
        ];
        if (out.length === 0) break;
        const placements = await takeLeases(this.#context, period, out, false);
        if (placements.length === 0) break;
        await place(this.#context, period, placements);
      }
    }
    return bounds;
  }

  /**
   * A move past its deadline: its owner died or stalled mid-move, the entry may be on two shards.
   * The players' leases are taken by force (their tokens fence the owner off) and their entries
   * scrubbed from the totals: written on the range shard, removed from every other.
   */
  async #takeOver(period: Period, users: readonly string[]): Promise<void> {
    const taken = await takeLeases(this.#context, period, users, true);
    if (taken.length > 0) await place(this.#context, period, taken);
  }

  async #boundsOf(period: Period): Promise<readonly number[]> {
    const cached = this.#bounds.get(period);
    if (cached !== undefined && cached.until > Date.now()) return cached.bounds;
    const raw = await this.#shards[0]!.get(this.#keys.of(period, 'bounds'));
    const bounds = raw === null ? this.#initialBounds : (JSON.parse(raw) as number[]);
    this.#bounds.set(period, { bounds, until: Date.now() + BOUNDS_TTL_MS });
    return bounds;
  }
}

/** HOME_APPLY's reply: the last win's player's encoded score, the leases kept, the leases taken. */
type HomeReply = [string | null, string[], ...(string | null)[]];

function codedScoreRange(error: unknown): never {
  if (error instanceof Error && error.message.includes('LB_SCORE_RANGE')) {
    throw leaderboardErrors.LB_SCORE_RANGE(
      'the score is beyond what the earliest tie-break can rank on Redis (262,143 points in a period)',
    );
  }
  throw error;
}
