import { setTimeout as sleep } from 'node:timers/promises';
import type { ChainableCommander, Redis } from 'ioredis';
import type { Period } from '../../core/period.ts';
import type { Standing, TieBreak } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import { leaderboardErrors } from '../../errors.ts';
import type { RankingStore } from '../../ports.ts';
import { LuaScript } from './lua-script.ts';
import { SEQ_SPAN } from './score-encoding.ts';
import { HOME_APPLY, HOME_LEASE, HOME_RELEASE, SHARD_AHEAD, SHARD_LOOK } from './shard-scripts.ts';
import {
  homeShard,
  inShardOrder,
  mergeDescending,
  rangeShard,
  ranksAbove,
  type Entry,
  type ShardExtent,
} from './shard-layout.ts';
import { pagedStandings } from './paged-standings.ts';

const homeApply = new LuaScript(HOME_APPLY);
const homeRelease = new LuaScript(HOME_RELEASE);
const homeLease = new LuaScript(HOME_LEASE);
const shardLook = new LuaScript(SHARD_LOOK);
const shardAhead = new LuaScript(SHARD_AHEAD);

const APPLY_CHUNK = 1_000;
/** Far longer than a placement takes; a placer that dies holding it delays its player this long. */
const LEASE_MS = 10_000;
/** How long a process trusts the bounds it read (a stale copy only misplaces, see inShardOrder). */
const BOUNDS_TTL_MS = 1_000;
/** Attempts of a consistent read before giving up (each waits a little longer). */
const READ_ATTEMPTS = 200;
const REBALANCE_BATCH = 1_000;

export interface ShardedRankingStoreOptions {
  readonly tieBreak: TieBreak;
  /** Prefix of every key (`lb:`; tests use their own). */
  readonly keyPrefix: string;
  /** Bounds in points (descending, one fewer than shards) used until the first rebalance. */
  readonly initialBounds?: readonly number[];
}

/** A player whose lease a process holds: the entry to write and where it is now. */
interface Placement {
  readonly home: number;
  readonly userId: string;
  readonly encoded: string;
  readonly shard: number | undefined;
  /** Written on its range shard and removed from every other (a repair after an instance was emptied). */
  readonly scrub?: boolean;
}

/** One atomic look at a range shard (SHARD_LOOK). */
interface Look extends ShardExtent {
  readonly epoch: string;
  readonly moving: number;
  readonly above: number;
  readonly mine: number | undefined;
}

/** A read attempt that saw a move in flight or a shard change under it. */
const RETRY = Symbol('retry');

/**
 * The ranking over N Redis instances, split by score range (LEADERBOARD_REDIS_SHARDS): shard 0
 * holds the highest scores, a rank is the count of higher entries over every shard plus one. A
 * player's wins are applied on its home instance (hash of the id) — totals, watermark and applied
 * seqs there make applying idempotent — and its entry is then written to the range shard of its
 * score by the one process holding the player's lease; crossing a bound is a move: add on the new
 * shard with a `moving` mark, remove from the old one, clear the mark. Readers look at every shard
 * twice and retry when a move was in flight or a shard's epoch changed in between, so a player is
 * never counted twice or missed. docs/architecture.md ("Past one Redis") gives the argument.
 */
export class ShardedRankingStore implements RankingStore {
  readonly #shards: readonly Redis[];
  readonly #prefix: string;
  readonly #earliest: '0' | '1';
  readonly #initialBounds: readonly number[];
  readonly #bounds = new Map<Period, { readonly bounds: readonly number[]; readonly until: number }>();

  constructor(shards: readonly Redis[], options: ShardedRankingStoreOptions) {
    if (shards.length === 0) throw new Error('a sharded ranking needs at least one Redis');
    this.#shards = shards;
    this.#prefix = options.keyPrefix;
    this.#earliest = options.tieBreak === 'earliest' ? '1' : '0';
    const unit = options.tieBreak === 'earliest' ? SEQ_SPAN : 1;
    this.#initialBounds = (options.initialBounds ?? []).slice(0, shards.length - 1).map((p) => p * unit);
  }

  async applyWin(win: Win): Promise<Standing> {
    const home = homeShard(win.userId, this.#shards.length);
    const reply = (await homeApply
      .run(this.#shards[home]!, this.#homeKeys(win.period), [
        this.#earliest,
        win.period,
        1,
        0,
        0,
        LEASE_MS,
        (await this.#boundsOf(win.period)).join(','),
        win.seq,
        win.userId,
        win.points,
      ])
      .catch(codedScoreRange)) as (string | null)[];
    await this.#place(win.period, leased(home, reply.slice(1)));
    const encoded = Number(reply[0]);
    const rank = await this.#consistent(async () => {
      const before = await this.#looks(win.period, '+inf', '');
      return before === RETRY ? RETRY : this.#rankOf(win.period, encoded, win.userId, before);
    });
    return { userId: win.userId, score: this.#total(encoded), rank };
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
        const perHome = this.#shards.map((): (string | number)[] => [
          this.#earliest,
          period,
          0,
          1,
          highest,
          LEASE_MS,
          bounds,
        ]);
        for (const w of chunk)
          perHome[homeShard(w.userId, this.#shards.length)]!.push(w.seq, w.userId, w.points);
        const replies = await Promise.all(
          perHome.map((args, home) => homeApply.run(this.#shards[home]!, this.#homeKeys(period), args)),
        );
        await this.#place(
          period,
          replies.flatMap((reply, home) => leased(home, (reply as (string | null)[]).slice(1))),
        );
      }
    }
  }

  async appliedSeq(period: Period): Promise<number> {
    const marks = await Promise.all(this.#shards.map((r) => r.hget(this.#key(period, 'meta'), 'watermark')));
    return Math.min(...marks.map((m) => Number(m ?? 0)));
  }

  async standing(period: Period, userId: string): Promise<Standing | undefined> {
    return this.#consistent(async () => {
      const looks = await this.#looks(period, '+inf', userId);
      if (looks === RETRY) return RETRY;
      const mine = looks.find((look) => look.mine !== undefined)?.mine;
      if (mine === undefined) return undefined;
      const rank = await this.#rankOf(period, mine, userId, looks);
      return rank === RETRY ? RETRY : { userId, score: this.#total(mine), rank };
    });
  }

  async top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    if (limit <= 0) return [];
    return this.#consistent(async () => {
      const looks = await this.#looks(period, '+inf', '');
      if (looks === RETRY) return RETRY;
      return this.#ranked(period, looks, offset, await this.#page(period, looks, offset, limit));
    });
  }

  async around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    return this.#consistent(async () => {
      const looks = await this.#looks(period, '+inf', userId);
      if (looks === RETRY) return RETRY;
      const mine = looks.find((look) => look.mine !== undefined)?.mine;
      if (mine === undefined) return undefined;
      const position = await this.#position(period, mine, userId);
      const from = Math.max(0, position - n);
      return this.#ranked(
        period,
        looks,
        from,
        await this.#page(period, looks, from, position + n + 1 - from),
      );
    });
  }

  async periods(): Promise<Period[]> {
    const all = await Promise.all(this.#shards.map((r) => r.smembers(`${this.#prefix}periods`)));
    return [...new Set(all.flat())].sort();
  }

  standings(period: Period): AsyncIterable<readonly Standing[]> {
    return pagedStandings((offset, limit) => this.top(period, offset, limit));
  }

  async drop(period: Period): Promise<void> {
    const parts = ['score', 'applied', 'meta', 'lease', 'at', 'rank', 'ctl', 'bounds'] as const;
    await Promise.all(
      this.#shards.map((r) =>
        exec(
          r
            .multi()
            .del(...parts.map((part) => this.#key(period, part)))
            .srem(`${this.#prefix}periods`, period),
        ),
      ),
    );
    this.#bounds.delete(period);
  }

  async players(period: Period): Promise<number> {
    const counts = await Promise.all(this.#shards.map((r) => r.hlen(this.#key(period, 'score'))));
    return counts.reduce((sum, c) => sum + c, 0);
  }

  /** The connections belong to whoever opened them. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * After the period was replayed onto instances of which one had come back empty: every player's
   * entry is written again from its home's total, on its range shard alone. The replay only
   * places players whose totals it changed, so an entry that lived on the emptied instance would
   * otherwise stay missing, and one whose location record was lost could be left on two shards.
   * Players whose lease another process holds are that process's to place.
   */
  async repair(period: Period): Promise<void> {
    const scoreKey = this.#key(period, 'score');
    for (let home = 0; home < this.#shards.length; home++) {
      const instance = this.#shards[home]!;
      let cursor = '0';
      do {
        const [next, flat] = await instance.hscan(scoreKey, cursor, 'COUNT', REBALANCE_BATCH);
        cursor = next;
        const users = flat.filter((_, i) => i % 2 === 0);
        if (users.length === 0) continue;
        const taken = (await homeLease.run(instance, this.#leaseKeys(period), [
          LEASE_MS,
          ...users,
        ])) as string[];
        const placements = leased(home, taken).map((p) => ({ ...p, scrub: true }));
        if (placements.length > 0) await this.#place(period, placements);
      } while (cursor !== '0');
    }
  }

  /**
   * Moves the bounds so that each shard holds an equal share of the period's players, then moves
   * the players now out of their shard's range (those whose lease another process holds are left
   * to it). Safe to run beside live traffic and in several processes at once.
   */
  async rebalance(period: Period): Promise<readonly number[]> {
    const bounds = await this.#consistent(async () => {
      const looks = await this.#looks(period, '+inf', '');
      if (looks === RETRY) return RETRY;
      const total = looks.reduce((sum, look) => sum + look.count, 0);
      const picked: number[] = [];
      for (let i = 1; i < this.#shards.length; i++) {
        const at = Math.max(0, Math.ceil((total * i) / this.#shards.length) - 1);
        const [entry] = await this.#page(period, looks, at, 1);
        const previous = picked.at(-1);
        if (entry !== undefined && (previous === undefined || entry.encoded < previous))
          picked.push(entry.encoded);
      }
      const verify = await this.#looks(period, '+inf', '');
      return verify === RETRY || !sameEpochs(looks, verify) ? RETRY : picked;
    });
    await this.#shards[0]!.set(this.#key(period, 'bounds'), JSON.stringify(bounds));
    this.#bounds.set(period, { bounds, until: Date.now() + BOUNDS_TTL_MS });
    for (let shard = 0; shard < this.#shards.length; shard++) {
      const rank = this.#key(period, 'rank');
      // A shard past the bounds (fewer distinct scores than shards) has no range: all of it moves.
      const empty = shard > bounds.length;
      const upper = empty ? '-inf' : shard === 0 ? undefined : bounds[shard - 1];
      const lower = empty ? undefined : bounds[shard];
      // Bounded: each round moves what it leases; what stays leased elsewhere is its placer's.
      for (let round = 0; round < 1_000; round++) {
        const out = [
          ...(upper === undefined
            ? []
            : await this.#shards[shard]!.zrangebyscore(rank, upper, '+inf', 'LIMIT', 0, REBALANCE_BATCH)),
          ...(lower === undefined
            ? []
            : await this.#shards[shard]!.zrangebyscore(
                rank,
                '-inf',
                `(${lower}`,
                'LIMIT',
                0,
                REBALANCE_BATCH,
              )),
        ];
        if (out.length === 0) break;
        const byHome = new Map<number, string[]>();
        for (const user of out) {
          const home = homeShard(user, this.#shards.length);
          byHome.set(home, [...(byHome.get(home) ?? []), user]);
        }
        const taken = await Promise.all(
          [...byHome].map(async ([home, users]) =>
            leased(
              home,
              (await homeLease.run(this.#shards[home]!, this.#leaseKeys(period), [
                LEASE_MS,
                ...users,
              ])) as string[],
            ),
          ),
        );
        const placements = taken.flat();
        if (placements.length === 0) break;
        await this.#place(period, placements);
      }
    }
    return bounds;
  }

  /** Writes the entries of the players leased, going round while their totals moved on. */
  async #place(period: Period, placements: readonly Placement[]): Promise<void> {
    let pending = placements;
    while (pending.length > 0) {
      const bounds = await this.#boundsOf(period);
      const puts = new Map<number, Placement[]>();
      const moves = new Map<string, { from: number; to: number; list: Placement[] }>();
      const placedAt = new Map<string, number>();
      const scrubs = new Map<number, Placement[]>();
      for (const p of pending) {
        const to = rangeShard(Number(p.encoded), bounds);
        placedAt.set(p.userId, to);
        if (p.scrub === true) scrubs.set(to, [...(scrubs.get(to) ?? []), p]);
        else if (p.shard === undefined || p.shard === to) puts.set(to, [...(puts.get(to) ?? []), p]);
        else {
          const key = `${p.shard}>${to}`;
          const move = moves.get(key) ?? { from: p.shard, to, list: [] };
          move.list.push(p);
          moves.set(key, move);
        }
      }
      const rank = this.#key(period, 'rank');
      await Promise.all([
        ...[...puts].map(([to, list]) =>
          this.#shards[to]!.zadd(rank, ...list.flatMap((p) => [p.encoded, p.userId])),
        ),
        ...[...moves.values()].map((move) => this.#move(period, move.from, move.to, move.list)),
        ...[...scrubs].map(([to, list]) => this.#relocate(period, to, list)),
      ]);
      const byHome = new Map<number, (string | number)[]>();
      for (const p of pending) {
        byHome.set(p.home, [
          ...(byHome.get(p.home) ?? [LEASE_MS]),
          p.userId,
          p.encoded,
          placedAt.get(p.userId)!,
        ]);
      }
      const again = await Promise.all(
        [...byHome].map(async ([home, args]) => {
          const reply = (await homeRelease.run(
            this.#shards[home]!,
            this.#leaseKeys(period),
            args,
          )) as string[];
          const next: Placement[] = [];
          for (let i = 0; i < reply.length; i += 2) {
            const userId = reply[i]!;
            next.push({ home, userId, encoded: reply[i + 1]!, shard: placedAt.get(userId) });
          }
          return next;
        }),
      );
      pending = again.flat();
    }
  }

  /**
   * A move between shards in three steps, each atomic on its instance: add on the new shard and
   * mark it `moving`; remove from the old; clear the mark. The entry is on two shards only while
   * the mark is set, which readers see (and retry on); it is never on none. A failure leaves the
   * mark set: readers then fail loudly rather than count the player twice.
   */
  async #move(period: Period, from: number, to: number, list: readonly Placement[]): Promise<void> {
    const rank = this.#key(period, 'rank');
    const ctl = this.#key(period, 'ctl');
    const dest = this.#shards[to]!;
    const source = this.#shards[from]!;
    await exec(
      dest
        .multi()
        .hincrby(ctl, 'moving', 1)
        .hincrby(ctl, 'epoch', 1)
        .zadd(rank, ...list.flatMap((p) => [p.encoded, p.userId])),
    );
    await exec(
      source
        .multi()
        .zrem(rank, ...list.map((p) => p.userId))
        .hincrby(ctl, 'epoch', 1),
    );
    await exec(dest.multi().hincrby(ctl, 'moving', -1).hincrby(ctl, 'epoch', 1));
  }

  /**
   * A move from wherever the entries may be: add on `to` under a `moving` mark, remove from every
   * other shard, clear the mark (readers retry while it is set, as for #move).
   */
  async #relocate(period: Period, to: number, list: readonly Placement[]): Promise<void> {
    const rank = this.#key(period, 'rank');
    const ctl = this.#key(period, 'ctl');
    const dest = this.#shards[to]!;
    const users = list.map((p) => p.userId);
    await exec(
      dest
        .multi()
        .hincrby(ctl, 'moving', 1)
        .hincrby(ctl, 'epoch', 1)
        .zadd(rank, ...list.flatMap((p) => [p.encoded, p.userId])),
    );
    await Promise.all(
      this.#shards
        .filter((_, shard) => shard !== to)
        .map((other) =>
          exec(
            other
              .multi()
              .zrem(rank, ...users)
              .hincrby(ctl, 'epoch', 1),
          ),
        ),
    );
    await exec(dest.multi().hincrby(ctl, 'moving', -1).hincrby(ctl, 'epoch', 1));
  }

  async #boundsOf(period: Period): Promise<readonly number[]> {
    const cached = this.#bounds.get(period);
    if (cached !== undefined && cached.until > Date.now()) return cached.bounds;
    const raw = await this.#shards[0]!.get(this.#key(period, 'bounds'));
    const bounds = raw === null ? this.#initialBounds : (JSON.parse(raw) as number[]);
    this.#bounds.set(period, { bounds, until: Date.now() + BOUNDS_TTL_MS });
    return bounds;
  }

  /** Looks at every shard; RETRY when a move is in flight on any. */
  async #looks(period: Period, above: string, userId: string): Promise<Look[] | typeof RETRY> {
    const keys = [this.#key(period, 'rank'), this.#key(period, 'ctl')];
    const replies = await Promise.all(this.#shards.map((r) => shardLook.run(r, keys, [above, userId])));
    const looks = replies.map((reply) => toLook(reply as (string | number | null)[]));
    return looks.some((look) => look.moving !== 0) ? RETRY : looks;
  }

  /**
   * The rank of an entry with `encoded` (1 + the entries above it on every shard, the user's own
   * excluded) checked against an earlier look: RETRY if a shard changed since.
   */
  async #rankOf(
    period: Period,
    encoded: number,
    userId: string,
    before?: readonly Look[],
  ): Promise<number | typeof RETRY> {
    const looks = await this.#looks(period, String(encoded), userId);
    if (looks === RETRY || (before !== undefined && !sameEpochs(before, looks))) return RETRY;
    const self = looks.filter((look) => look.mine !== undefined && look.mine > encoded).length;
    return 1 + looks.reduce((sum, look) => sum + look.above, 0) - self;
  }

  /** The 0-based position of (encoded, user) in the whole ranking. */
  async #position(period: Period, encoded: number, userId: string): Promise<number> {
    const replies = await Promise.all(
      this.#shards.map((r) => shardAhead.run(r, [this.#key(period, 'rank')], [String(encoded), userId])),
    );
    let position = 0;
    for (const reply of replies as [number, number | null, string[]][]) {
      if (reply[1] !== null) position += reply[1];
      else {
        position += reply[0];
        for (const member of reply[2])
          if (ranksAbove({ member, encoded }, { member: userId, encoded })) position++;
      }
    }
    return position;
  }

  /** Entries at positions [offset, offset + limit) of the whole ranking. */
  async #page(period: Period, looks: readonly Look[], offset: number, limit: number): Promise<Entry[]> {
    const rank = this.#key(period, 'rank');
    if (!inShardOrder(looks)) {
      // Out of range entries (a rebalance under way): merge every shard's head.
      const heads = await Promise.all(
        this.#shards.map(async (r) => entries(await r.zrevrange(rank, 0, offset + limit - 1, 'WITHSCORES'))),
      );
      return mergeDescending(heads).slice(offset, offset + limit);
    }
    const reads: Promise<Entry[]>[] = [];
    let start = 0;
    for (let shard = 0; shard < looks.length; shard++) {
      const count = looks[shard]!.count;
      const from = Math.max(offset, start);
      const to = Math.min(offset + limit, start + count);
      if (from < to) {
        reads.push(
          this.#shards[shard]!.zrevrange(rank, from - start, to - start - 1, 'WITHSCORES').then(entries),
        );
      }
      start += count;
    }
    return (await Promise.all(reads)).flat();
  }

  /** Standings of a page starting at `offset`, checked against the look it was read after. */
  async #ranked(
    period: Period,
    looks: readonly Look[],
    offset: number,
    page: readonly Entry[],
  ): Promise<Standing[] | typeof RETRY> {
    const first = page[0];
    const check = await this.#looks(period, first === undefined ? '+inf' : String(first.encoded), '');
    if (check === RETRY || !sameEpochs(looks, check)) return RETRY;
    // Shared ranks: 1 + the entries with a higher score, whichever shard they are on.
    let previous: Entry | undefined;
    let rank = 1 + check.reduce((sum, look) => sum + look.above, 0);
    return page.map((entry, i) => {
      if (this.#earliest === '1') rank = offset + i + 1;
      else if (previous !== undefined && entry.encoded !== previous.encoded) rank = offset + i + 1;
      previous = entry;
      return { userId: entry.member, score: this.#total(entry.encoded), rank };
    });
  }

  /** Runs a read until it saw no move in flight and no shard changed under it. */
  async #consistent<T>(attempt: () => Promise<T | typeof RETRY>): Promise<T> {
    for (let i = 0; i < READ_ATTEMPTS; i++) {
      const result = await attempt();
      if (result !== RETRY) return result;
      await sleep(Math.min(i, 20));
    }
    throw new Error('the sharded ranking kept moving under a read (a move left unfinished?)');
  }

  #total(encoded: number): number {
    return this.#earliest === '1' ? Math.floor(encoded / SEQ_SPAN) : encoded;
  }

  #homeKeys(period: Period): string[] {
    return [
      this.#key(period, 'score'),
      this.#key(period, 'applied'),
      this.#key(period, 'meta'),
      this.#key(period, 'lease'),
      this.#key(period, 'at'),
      `${this.#prefix}periods`,
    ];
  }

  #leaseKeys(period: Period): string[] {
    return [this.#key(period, 'score'), this.#key(period, 'lease'), this.#key(period, 'at')];
  }

  #key(period: Period, part: string): string {
    return `${this.#prefix}{${period}}:${part}`;
  }
}

/** user, encoded, shard-or-'' triples from a home script. */
function leased(home: number, flat: readonly (string | null)[]): Placement[] {
  const out: Placement[] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) {
    const at = flat[i + 2];
    out.push({
      home,
      userId: flat[i]!,
      encoded: flat[i + 1]!,
      shard: at === '' || at == null ? undefined : Number(at),
    });
  }
  return out;
}

function toLook(reply: readonly (string | number | null)[]): Look {
  const entry = (member: unknown, encoded: unknown): Entry | undefined =>
    member === '' ? undefined : { member: String(member), encoded: Number(encoded) };
  return {
    epoch: String(reply[0]),
    moving: Number(reply[1]),
    count: Number(reply[2]),
    above: Number(reply[3]),
    mine: reply[4] === null ? undefined : Number(reply[4]),
    first: entry(reply[5], reply[6]),
    last: entry(reply[7], reply[8]),
  };
}

function sameEpochs(a: readonly Look[], b: readonly Look[]): boolean {
  return a.every((look, i) => look.epoch === b[i]!.epoch);
}

function entries(flat: readonly string[]): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push({ member: flat[i]!, encoded: Number(flat[i + 1]) });
  return out;
}

async function exec(multi: ChainableCommander): Promise<void> {
  const results = await multi.exec();
  const failed = results?.find(([error]) => error !== null);
  if (results === null || failed !== undefined) throw failed?.[0] ?? new Error('transaction aborted');
}

function codedScoreRange(error: unknown): never {
  if (error instanceof Error && error.message.includes('LB_SCORE_RANGE')) {
    throw leaderboardErrors.LB_SCORE_RANGE(
      'the score is beyond what the earliest tie-break can rank on Redis (262,143 points in a period)',
    );
  }
  throw error;
}
