import type { Period } from '../../core/period.ts';
import type { Standing } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import { leaderboardErrors } from '../../errors.ts';
import { LuaScript } from './lua-script.ts';
import { homeShard } from './shard-layout.ts';
import { HOME_APPLY } from './shard-scripts.ts';
import type { ShardedContext } from './sharded-context.ts';
import { keptLeases, leased, type Placement } from './sharded-leases.ts';
import { place } from './sharded-placement.ts';
import { releaseArgs, type PendingReleases } from './sharded-releases.ts';
import { RETRY, type Look, type Retry, type ShardedReads } from './sharded-reads.ts';

const homeApply = new LuaScript(HOME_APPLY);

const APPLY_CHUNK = 1_000;

/** What applying wins needs of the sharded ranking. */
export interface HomeApplyParts {
  readonly context: ShardedContext;
  readonly reads: ShardedReads;
  readonly releases: PendingReleases;
  /** HOME_APPLY's tie-break flag: '1' for `earliest`. */
  readonly earliest: '0' | '1';
}

/**
 * Two round trips when the player stays on its shard: the home script beside a first look at
 * every shard (a read needs only its epochs, and any time before the second look will do), then
 * the write beside the second look (the rank counts the other players above the new total, so
 * it needs no order with the player's own entry). The lease goes back with the next home script
 * this process runs there (PendingReleases), which also places again, beside its own player,
 * those whose totals moved on meanwhile. A move adds its two later steps.
 */
export async function applyWin(parts: HomeApplyParts, win: Win): Promise<Standing> {
  const { context, reads, releases } = parts;
  const home = homeShard(win.userId, context.shards.length);
  const bounds = (await context.boundsOf(win.period)).join(',');
  let early: Promise<Look[] | Retry> | undefined = reads
    .looks(win.period, '+inf', '')
    .catch((): Retry => RETRY);
  const releasing = releases.take(win.period, home);
  const reply = (await homeApply
    .run(context.shards[home]!, context.keys.home(win.period), [
      parts.earliest,
      win.period,
      1,
      0,
      0,
      context.leaseMs,
      bounds,
      home,
      ...releaseArgs(releasing),
      win.seq,
      win.userId,
      win.points,
    ])
    .catch((error: unknown) => {
      // The wins go first in the script: on an error the leases are as they were.
      releases.add(win.period, releasing);
      return codedScoreRange(error);
    })) as HomeReply;
  const encoded = Number(reply[0]);
  const placements = [...keptLeases(releasing, reply[1]), ...leased(home, reply.slice(2) as string[])];
  const [, rank] = await Promise.all([
    place(context, win.period, placements, (written) => releases.add(win.period, written)),
    reads.consistent(async () => {
      const before = await (early ?? reads.looks(win.period, '+inf', ''));
      early = undefined;
      return before === RETRY ? RETRY : reads.rankOf(win.period, encoded, win.userId, before);
    }),
  ]);
  return { userId: win.userId, score: reads.total(encoded), rank };
}

export async function applyBatch(parts: HomeApplyParts, wins: readonly Win[]): Promise<void> {
  const byPeriod = new Map<Period, Win[]>();
  for (const win of wins) {
    const list = byPeriod.get(win.period);
    if (list === undefined) byPeriod.set(win.period, [win]);
    else list.push(win);
  }
  for (const [period, list] of byPeriod) {
    for (let i = 0; i < list.length; i += APPLY_CHUNK)
      await applyChunk(parts, period, list.slice(i, i + APPLY_CHUNK));
  }
}

async function applyChunk(parts: HomeApplyParts, period: Period, chunk: readonly Win[]): Promise<void> {
  const { context, releases } = parts;
  const shards = context.shards;
  const highest = chunk.reduce((max, w) => Math.max(max, w.seq), 0);
  const bounds = (await context.boundsOf(period)).join(',');
  const releasing = shards.map((_, home) => releases.take(period, home));
  const perHome = shards.map((_, home): (string | number)[] => [
    parts.earliest,
    period,
    0,
    1,
    highest,
    context.leaseMs,
    bounds,
    home,
    ...releaseArgs(releasing[home]!),
  ]);
  for (const w of chunk) perHome[homeShard(w.userId, shards.length)]!.push(w.seq, w.userId, w.points);
  const replies = await Promise.allSettled(
    perHome.map((args, home) => homeApply.run(shards[home]!, context.keys.home(period), args)),
  );
  // Every home's outcome is settled before any failure is thrown: a failed home's releases
  // wait for the next script there (its wins go first: its leases are as they were), and
  // the homes that applied still place what they leased and gave back.
  const placements: Placement[] = [];
  let failure: { reason: unknown } | undefined;
  replies.forEach((result, home) => {
    if (result.status === 'rejected') {
      releases.add(period, releasing[home]!);
      failure ??= { reason: result.reason };
      return;
    }
    const reply = result.value as HomeReply;
    placements.push(...keptLeases(releasing[home]!, reply[1]), ...leased(home, reply.slice(2) as string[]));
  });
  await place(context, period, placements);
  if (failure !== undefined) codedScoreRange(failure.reason);
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
