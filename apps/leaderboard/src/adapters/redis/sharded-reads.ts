import { setTimeout as sleep } from 'node:timers/promises';
import type { Period } from '../../core/period.ts';
import type { Standing } from '../../core/standing.ts';
import { leaderboardErrors } from '../../errors.ts';
import { LuaScript } from './lua-script.ts';
import { SEQ_SPAN } from './score-encoding.ts';
import { RANGE_AHEAD, RANGE_LOOK } from './shard-range-scripts.ts';
import {
  descending,
  inShardOrder,
  mergeDescending,
  ranksAbove,
  type Entry,
  type ShardExtent,
} from './shard-layout.ts';
import type { ShardedContext } from './sharded-context.ts';

const rangeLook = new LuaScript(RANGE_LOOK);
const rangeAhead = new LuaScript(RANGE_AHEAD);

/** How long past a lease a read keeps waiting on moves (a stuck one is taken over at its deadline). */
const READ_GRACE_MS = 2_000;

/** One atomic look at a range shard (RANGE_LOOK). */
export interface Look extends ShardExtent {
  readonly epoch: string;
  /** Moves in flight into this shard. */
  readonly moving: number;
  /** The highest score of an entry in flight into this shard: counted, its player may be twice. */
  readonly movingTop: number | undefined;
  readonly above: number;
  readonly mine: number | undefined;
  /** A step since the earlier look touched an entry above the score asked (see Since). */
  readonly changed: boolean;
}

/**
 * What a second look checks against: the first looks, the score above which a step of a move
 * since makes the read wrong, and the one above which a player joining does (a page, positioned
 * by shard sizes; none for a rank).
 */
export interface Since {
  readonly looks: readonly Look[];
  readonly above: number;
  readonly joinedAbove?: number;
}

/** A read attempt that a move could have made wrong (in flight, or between its looks). */
export const RETRY = Symbol('retry');
export type Retry = typeof RETRY;

/**
 * The read side of the sharded ranking: looks at every shard twice, retried until no move could
 * change the answer: none touched an entry the read counts between its looks, none of those is in
 * flight (docs/architecture.md, "Past one Redis", gives the argument). A move past its deadline
 * is handed to `takeOver` (which scrubs the player under a new lease), so a move left by a dead
 * process delays reads, never fails them.
 */
export class ShardedReads {
  readonly #context: ShardedContext;
  readonly #earliest: boolean;
  readonly #takeOver: (period: Period, users: readonly string[]) => Promise<void>;

  constructor(
    context: ShardedContext,
    earliest: boolean,
    takeOver: (period: Period, users: readonly string[]) => Promise<void>,
  ) {
    this.#context = context;
    this.#earliest = earliest;
    this.#takeOver = takeOver;
  }

  /**
   * Looks at every shard; RETRY when a move was past its deadline (taken over first). Whether the
   * moves in flight concern the read is the caller's to decide (rankOf, ranked, still).
   */
  async looks(period: Period, above: string, userId: string, since?: Since): Promise<Look[] | Retry> {
    const keys = this.#context.keys.look(period);
    const replies = await Promise.all(
      this.#context.shards.map((r, i) =>
        rangeLook.run(r, keys, [
          above,
          userId,
          since === undefined ? '' : since.looks[i]!.epoch,
          since === undefined ? '' : since.above,
          since?.joinedAbove ?? '',
        ]),
      ),
    );
    const looks = replies.map((reply) => toLook(reply as (string | number | null)[]));
    const lapsed = replies.flatMap((reply) => (reply as string[]).slice(11));
    if (lapsed.length === 0) return looks;
    await this.#takeOver(period, [...new Set(lapsed)]);
    return RETRY;
  }

  /**
   * The rank of an entry with `encoded` (1 + the entries above it on every shard, the user's own
   * excluded) checked against an earlier look: RETRY if a move touched an entry above `encoded`
   * since, or an entry in flight is above it (counted, its player may be counted on its old shard
   * too). Moves below `encoded` change no count.
   */
  async rankOf(
    period: Period,
    encoded: number,
    userId: string,
    before?: readonly Look[],
  ): Promise<number | Retry> {
    // Seen already in the first look: no need for the second.
    if (before !== undefined && movingAbove(before) > encoded) return RETRY;
    // A player joining above changes the count, yet counts no player twice nor misses one.
    const since = before === undefined ? undefined : { looks: before, above: encoded };
    const looks = await this.looks(period, String(encoded), userId, since);
    if (looks === RETRY || looks.some((look) => look.changed) || movingAbove(looks) > encoded) return RETRY;
    const self = looks.filter((look) => look.mine !== undefined && look.mine > encoded).length;
    return 1 + looks.reduce((sum, look) => sum + look.above, 0) - self;
  }

  /** The 0-based position of (encoded, user) in the whole ranking. */
  async position(period: Period, encoded: number, userId: string): Promise<number> {
    const rank = this.#context.keys.of(period, 'rank');
    const replies = await Promise.all(
      this.#context.shards.map((r) => rangeAhead.run(r, [rank], [String(encoded), userId])),
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
  async page(period: Period, looks: readonly Look[], offset: number, limit: number): Promise<Entry[]> {
    const rank = this.#context.keys.of(period, 'rank');
    const shards = this.#context.shards;
    if (!inShardOrder(looks)) {
      // Out of range entries (a rebalance under way): merge every shard's head.
      const heads = await Promise.all(
        shards.map(async (r) => entries(await r.zrevrange(rank, 0, offset + limit - 1, 'WITHSCORES'))),
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
        reads.push(shards[shard]!.zrevrange(rank, from - start, to - start - 1, 'WITHSCORES').then(entries));
      }
      start += count;
    }
    return (await Promise.all(reads)).flat();
  }

  /**
   * Standings of a page of `limit` entries asked from `offset`, checked against the look it was
   * read after: RETRY if a step touched, or an entry in flight is, an entry as low as the page's
   * last one or above (the positions were found by counts that may hold its player twice or miss
   * it). A page shorter than asked claims the end of the ranking: RETRY on any step or move.
   */
  async ranked(
    period: Period,
    looks: readonly Look[],
    offset: number,
    limit: number,
    page: readonly Entry[],
  ): Promise<Standing[] | Retry> {
    // Read by sizes, the shards were in order at their looks; a score that grew in place since
    // (no step: a placer with bounds from before a rebalance) can put a shard's entry above the
    // one before it. Read again: the looks then see the shards out of order, and merge.
    if (!descending(page)) return RETRY;
    const first = page[0];
    // A full page: entries below its last one move no position in it. A short one was cut by the
    // sizes of a first look that is not one instant across shards (or by a shard holding fewer
    // than its size by then): a player moved below it meanwhile, to a shard counted empty, is in
    // no read, and that step touched nothing as high as the page's last entry.
    const last = page.at(-1)?.encoded;
    const lowest = page.length < limit ? undefined : last;
    // Scores are integers: above lowest - 1 is as low as the last entry or above. A player joining
    // moves no one between shards: below the last entry read, it leaves any page right as of the
    // instant before it joined; as high or above, the page missed it.
    const since = {
      looks,
      above: lowest === undefined ? -1 : lowest - 1,
      joinedAbove: last === undefined ? -1 : last - 1,
    };
    const check = await this.looks(period, first === undefined ? '+inf' : String(first.encoded), '', since);
    if (check === RETRY || check.some((look) => look.changed)) return RETRY;
    if (
      lowest === undefined
        ? !still(looks) || !still(check)
        : Math.max(movingAbove(looks), movingAbove(check)) >= lowest
    )
      return RETRY;
    // Shared ranks: 1 + the entries with a higher score, whichever shard they are on.
    let previous: Entry | undefined;
    let rank = 1 + check.reduce((sum, look) => sum + look.above, 0);
    return page.map((entry, i) => {
      if (this.#earliest) rank = offset + i + 1;
      else if (previous !== undefined && entry.encoded !== previous.encoded) rank = offset + i + 1;
      previous = entry;
      return { userId: entry.member, score: this.total(entry.encoded), rank };
    });
  }

  /**
   * Runs a read until no move in flight or between its looks could change its answer. A move
   * lasts at most a lease before it is taken over, so waiting a lease and a little more always
   * ends; past that the read fails (503, coded) rather than answer what it could not check.
   */
  async consistent<T>(attempt: () => Promise<T | Retry>): Promise<T> {
    const until = performance.now() + this.#context.leaseMs + READ_GRACE_MS;
    let tries = 0;
    for (; ; tries++) {
      const result = await attempt();
      if (result !== RETRY) return result;
      if (performance.now() > until) break;
      await sleep(Math.min(tries, 20));
    }
    throw leaderboardErrors.LB_STORE_UNAVAILABLE(
      `the sharded ranking kept moving under a read for longer than a lease (${tries + 1} tries); retry later`,
      { dependency: 'redis' },
      { 'Retry-After': '1' },
    );
  }

  total(encoded: number): number {
    return this.#earliest ? Math.floor(encoded / SEQ_SPAN) : encoded;
  }
}

/** The highest score of an entry in flight on any shard (-Infinity for none). */
function movingAbove(looks: readonly Look[]): number {
  return Math.max(-Infinity, ...looks.map((look) => look.movingTop ?? -Infinity));
}

/** True when no move is in flight at all (what a rebalance picking bounds needs). */
export function still(looks: readonly Look[]): boolean {
  return looks.every((look) => look.moving === 0);
}

function toLook(reply: readonly (string | number | null)[]): Look {
  const entry = (member: unknown, encoded: unknown): Entry | undefined =>
    member === '' ? undefined : { member: String(member), encoded: Number(encoded) };
  return {
    epoch: String(reply[0]),
    moving: Number(reply[1]),
    movingTop: reply[2] === '' ? undefined : Number(reply[2]),
    count: Number(reply[3]),
    above: Number(reply[4]),
    mine: reply[5] === null ? undefined : Number(reply[5]),
    first: entry(reply[6], reply[7]),
    last: entry(reply[8], reply[9]),
    changed: reply[10] === 1,
  };
}

function entries(flat: readonly string[]): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push({ member: flat[i]!, encoded: Number(flat[i + 1]) });
  return out;
}
