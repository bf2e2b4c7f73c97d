import type { Redis } from 'ioredis';
import type { Period } from '../../core/period.ts';
import type { Standing, TieBreak } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import { leaderboardErrors } from '../../errors.ts';
import type { RankingStore } from '../../ports.ts';
import { LuaScript } from './lua-script.ts';
import { APPLY, AROUND, STANDING, TOP } from './ranking-scripts.ts';
import { pagedStandings } from './paged-standings.ts';

/** Wins per script call of a batch: long enough to amortise the round trip, short enough not to stall Redis. */
const APPLY_CHUNK = 1_000;

const apply = new LuaScript(APPLY);
const standingScript = new LuaScript(STANDING);
const topScript = new LuaScript(TOP);
const aroundScript = new LuaScript(AROUND);

export interface RedisRankingStoreOptions {
  readonly tieBreak: TieBreak;
  /** Prefix of every key (`lb:`; tests use their own). */
  readonly keyPrefix: string;
}

/**
 * The live rankings in Redis: one sorted set per period, every operation one Lua script (one round
 * trip, atomic). See ranking-scripts.ts for the keys and score-encoding.ts for the scores.
 *
 * `appliedSeq` is a watermark that a catch-up can always start from: with several api processes,
 * wins of one period are applied out of seq order, so the highest seq applied says nothing about
 * the seqs below it. The watermark moves only in `applyBatch`, whose wins are a run of the
 * period's log read from at most the watermark (what `winLog.read(period, appliedSeq)` yields):
 * once such a run is applied, every win of the period up to its last seq is. Live wins above the
 * watermark are remembered one by one in `applied`, so a catch-up re-reading them changes
 * nothing; each catch-up also drops that memory below the new watermark, which is what keeps it
 * small — the roles must catch up now and then (it also applies a win whose api crashed between
 * append and apply).
 */
export class RedisRankingStore implements RankingStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #earliest: '0' | '1';

  constructor(redis: Redis, options: RedisRankingStoreOptions) {
    this.#redis = redis;
    this.#prefix = options.keyPrefix;
    this.#earliest = options.tieBreak === 'earliest' ? '1' : '0';
  }

  async applyWin(win: Win): Promise<Standing> {
    const reply = (await apply
      .run(this.#redis, this.#applyKeys(win.period), [
        this.#earliest,
        win.period,
        1,
        0,
        win.seq,
        win.userId,
        win.points,
      ])
      .catch(codedScoreRange)) as [number, number];
    return { userId: win.userId, score: reply[0], rank: reply[1] };
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
        const args: (string | number)[] = [this.#earliest, period, 0, 1];
        for (const win of list.slice(i, i + APPLY_CHUNK)) args.push(win.seq, win.userId, win.points);
        await apply.run(this.#redis, this.#applyKeys(period), args);
      }
    }
  }

  async appliedSeq(period: Period): Promise<number> {
    return Number((await this.#redis.hget(this.#key(period, 'meta'), 'watermark')) ?? 0);
  }

  async standing(period: Period, userId: string): Promise<Standing | undefined> {
    const reply = (await standingScript.run(
      this.#redis,
      [this.#key(period, 'rank')],
      [this.#earliest, userId],
    )) as [number, number] | null;
    return reply === null ? undefined : { userId, score: reply[0], rank: reply[1] };
  }

  async top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    if (limit <= 0) return [];
    const reply = await topScript.run(
      this.#redis,
      [this.#key(period, 'rank')],
      [this.#earliest, offset, limit],
    );
    return triples(reply as (string | number)[]);
  }

  async around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    const reply = await aroundScript.run(
      this.#redis,
      [this.#key(period, 'rank')],
      [this.#earliest, userId, n],
    );
    return reply === null ? undefined : triples(reply as (string | number)[]);
  }

  async periods(): Promise<Period[]> {
    return (await this.#redis.smembers(`${this.#prefix}periods`)).sort();
  }

  standings(period: Period): AsyncIterable<readonly Standing[]> {
    return pagedStandings((offset, limit) => this.top(period, offset, limit));
  }

  async drop(period: Period): Promise<void> {
    await this.#redis
      .multi()
      .del(this.#key(period, 'rank'), this.#key(period, 'applied'), this.#key(period, 'meta'))
      .srem(`${this.#prefix}periods`, period)
      .exec();
  }

  players(period: Period): Promise<number> {
    return this.#redis.zcard(this.#key(period, 'rank'));
  }

  /** The connection belongs to whoever opened it (it is shared with the profile cache). */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #applyKeys(period: Period): string[] {
    return [
      this.#key(period, 'rank'),
      this.#key(period, 'applied'),
      this.#key(period, 'meta'),
      `${this.#prefix}periods`,
    ];
  }

  #key(period: Period, part: 'rank' | 'applied' | 'meta'): string {
    return `${this.#prefix}{${period}}:${part}`;
  }
}

function triples(reply: readonly (string | number)[]): Standing[] {
  const standings: Standing[] = [];
  for (let i = 0; i < reply.length; i += 3) {
    standings.push({ userId: String(reply[i]), score: Number(reply[i + 1]), rank: Number(reply[i + 2]) });
  }
  return standings;
}

/** The script's refusal of a score it cannot encode, as the coded problem a client can read. */
function codedScoreRange(error: unknown): never {
  if (error instanceof Error && error.message.includes('LB_SCORE_RANGE')) {
    throw leaderboardErrors.LB_SCORE_RANGE(
      'the score is beyond what the earliest tie-break can rank on Redis (262,143 points in a period)',
    );
  }
  throw error;
}
