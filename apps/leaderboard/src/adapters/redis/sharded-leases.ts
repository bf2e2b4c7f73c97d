import type { Period } from '../../core/period.ts';
import { LuaScript } from './lua-script.ts';
import { HOME_LAPSED, HOME_LEASE, HOME_RELEASE } from './shard-scripts.ts';
import { homeShard } from './shard-layout.ts';
import type { ShardedContext } from './sharded-context.ts';

const homeLease = new LuaScript(HOME_LEASE);
const homeLapsed = new LuaScript(HOME_LAPSED);
const homeRelease = new LuaScript(HOME_RELEASE);

/** Leases that lapsed taken over per home and round trip. */
const LAPSED_BATCH = 1_000;

/** A player whose lease a process holds: the entry to write, where it is now, and the token. */
export interface Placement {
  readonly home: number;
  readonly userId: string;
  readonly encoded: string;
  readonly shard: number | undefined;
  /** The lease's fencing token: a range shard refuses it once a newer one wrote the player. */
  readonly token: string;
  /**
   * Written on its range shard and removed from every other, move records included: the lease
   * lapsed (its holder died or stalled, maybe mid-move) or an instance came back empty.
   */
  readonly scrub: boolean;
}

/** A lease whose entry is written: `to` is the shard it is on now. */
export type Released = Placement & { readonly to: number };

/** user, encoded, shard-or-'', token, scrub tuples from a home script. */
export function leased(home: number, flat: readonly (string | null)[]): Placement[] {
  const out: Placement[] = [];
  for (let i = 0; i + 4 < flat.length; i += 5) {
    const at = flat[i + 2];
    out.push({
      home,
      userId: flat[i]!,
      encoded: flat[i + 1]!,
      shard: at === '' || at == null ? undefined : Number(at),
      token: flat[i + 3]!,
      scrub: flat[i + 4] === '1',
    });
  }
  return out;
}

/**
 * Takes the leases of `users` (any homes) that are free or lapsed — or every one when `force`d,
 * fencing off their holders (a reader finishing a move whose deadline passed).
 */
export async function takeLeases(
  context: ShardedContext,
  period: Period,
  users: readonly string[],
  force: boolean,
): Promise<Placement[]> {
  const byHome = new Map<number, string[]>();
  for (const user of users) {
    const home = homeShard(user, context.shards.length);
    byHome.set(home, [...(byHome.get(home) ?? []), user]);
  }
  const taken = await Promise.all(
    [...byHome].map(async ([home, list]) =>
      leased(
        home,
        (await homeLease.run(context.shards[home]!, context.keys.lease(period), [
          context.leaseMs,
          force ? '1' : '0',
          ...list,
        ])) as string[],
      ),
    ),
  );
  return taken.flat();
}

/** Takes over, on every home, the leases that lapsed without being given back. */
export async function takeLapsed(context: ShardedContext, period: Period): Promise<Placement[]> {
  const taken = await Promise.all(
    context.shards.map(async (instance, home) =>
      leased(
        home,
        (await homeLapsed.run(instance, context.keys.lease(period), [
          context.leaseMs,
          LAPSED_BATCH,
        ])) as string[],
      ),
    ),
  );
  return taken.flat();
}

/**
 * Gives back the leases of the players placed (recording where each entry now is) and answers the
 * ones whose total moved on meanwhile, still leased, to be placed again. A lease a newer token
 * took is left alone.
 */
export async function releaseLeases(
  context: ShardedContext,
  period: Period,
  placed: readonly Released[],
): Promise<Placement[]> {
  const byHome = new Map<number, Released[]>();
  for (const p of placed) byHome.set(p.home, [...(byHome.get(p.home) ?? []), p]);
  const again = await Promise.all(
    [...byHome].map(async ([home, list]) => {
      const reply = (await homeRelease.run(context.shards[home]!, context.keys.lease(period).slice(0, 3), [
        context.leaseMs,
        ...list.flatMap((p) => [p.userId, p.token, p.encoded, p.to]),
      ])) as string[];
      return keptLeases(list, reply);
    }),
  );
  return again.flat();
}

/**
 * The leases a release (HOME_RELEASE, HOME_APPLY) kept because their totals moved on (user,
 * encoded pairs), to be placed again under the same tokens.
 */
export function keptLeases(released: readonly Released[], flat: readonly string[]): Placement[] {
  const byUser = new Map(released.map((r) => [r.userId, r]));
  const out: Placement[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const r = byUser.get(flat[i]!)!;
    out.push({
      home: r.home,
      userId: r.userId,
      encoded: flat[i + 1]!,
      shard: r.to,
      token: r.token,
      scrub: false,
    });
  }
  return out;
}
