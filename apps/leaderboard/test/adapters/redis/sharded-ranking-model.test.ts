// Model-based: random workloads applied to the sharded ranking and to one Redis instance, whose
// ranks, top-N and around-N must agree exactly — with players crossing many bounds, redeliveries,
// wins applied concurrently, catch-ups by batch and rebalances in the middle of it all, a
// process dying in the middle of its placements, and the fence pruned.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import t from 'tap';
import { RedisRankingStore } from '../../../src/adapters/redis/redis-ranking-store.ts';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { TieBreak } from '../../../src/core/standing.ts';
import type { Win } from '../../../src/core/win.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { startRedisServers } from './redis-servers.ts';
import { startTcpHook } from './tcp-hook.ts';

t.setTimeout(600_000);

const servers = await startRedisServers(t, 3);
const prefix = () => `t${randomBytes(4).toString('hex')}:lb:`;

/** A small deterministic generator, so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

const PERIOD = '2026-11';

interface Case {
  readonly tieBreak: TieBreak;
  readonly shards: readonly Redis[];
  readonly seed: number;
}

const cases: Case[] = [];
for (const tieBreak of ['shared', 'earliest'] as const) {
  cases.push({ tieBreak, shards: servers.slice(0, 2), seed: tieBreak === 'shared' ? 1 : 2 });
  cases.push({ tieBreak, shards: servers, seed: tieBreak === 'shared' ? 3 : 4 });
}

for (const { tieBreak, shards, seed } of cases) {
  t.test(`${tieBreak}, ${shards.length} shards (seed ${seed}): exact against one instance`, async (t) => {
    const random = rng(seed);
    const single = new RedisRankingStore(servers[0]!, { tieBreak, keyPrefix: prefix() });
    // Bounds so low that every player soon crosses all of them, until the first rebalance. Two
    // stores on the same keys are two api processes: `other` rebalances, so `sharded` places by
    // bounds it read before (for up to a second) and leaves players out of range for a while.
    const options = { tieBreak, keyPrefix: prefix(), initialBounds: [3, 1].slice(0, shards.length - 1) };
    const sharded = new ShardedRankingStore(shards, options);
    const other = new ShardedRankingStore(shards, options);
    const players = Array.from({ length: 120 }, (_, i) => `p-${(i * 7919).toString(36)}`);
    const pick = () => players[Math.floor(random() * random() * players.length)]!;
    // Mostly small wins, now and then a big one that jumps several shards at once.
    const points = () => (random() < 0.05 ? 20 + Math.floor(random() * 80) : 1 + Math.floor(random() * 3));
    const wins: Win[] = Array.from({ length: 2_600 }, (_, i) => win(i + 1, pick(), points(), PERIOD));
    let checks = 0;

    const compare = async (label: string) => {
      // Exact once both processes gave back the leases that wait for a next home script: a win
      // applied under another's lease is placed by that holder when it gives the lease back.
      await Promise.all([sharded.settle(), other.settle()]);
      const all = await single.top(PERIOD, 0, players.length);
      t.same(await sharded.top(PERIOD, 0, players.length), all, `${label}: the whole ranking`);
      for (const offset of [0, 3, 10, 50]) {
        t.same(
          await sharded.top(PERIOD, offset, 10),
          await single.top(PERIOD, offset, 10),
          `${label}: page ${offset}`,
        );
      }
      for (const player of players.filter(() => random() < 0.15)) {
        t.same(
          await sharded.standing(PERIOD, player),
          await single.standing(PERIOD, player),
          `${label}: ${player}`,
        );
        t.same(
          await sharded.around(PERIOD, player, 3),
          await single.around(PERIOD, player, 3),
          `${label}: around ${player}`,
        );
      }
      t.equal(await sharded.players(PERIOD), await single.players(PERIOD), `${label}: players`);
      checks++;
    };

    // 1. Live, one by one: every answer exact; redeliveries count once.
    for (const w of wins.slice(0, 600)) {
      const want = await single.applyWin(w);
      const got = await sharded.applyWin(w);
      if (got.rank !== want.rank || got.score !== want.score) t.same(got, want, `answer for seq ${w.seq}`);
      if (random() < 0.1) t.same(await sharded.applyWin(w), await single.applyWin(w), 'a redelivery');
    }
    await compare('live');

    // 2. A rebalance, then concurrent wins (several of one player at once) with a rebalance
    //    running among them.
    t.equal((await other.rebalance(PERIOD)).length, shards.length - 1, 'bounds for every shard');
    await compare('after a rebalance');
    const concurrent = wins.slice(600, 1_600);
    for (let i = 0; i < concurrent.length; i += 40) {
      const group = concurrent.slice(i, i + 40);
      const redelivered = group.filter(() => random() < 0.2);
      await Promise.all([
        ...group.map((w) => single.applyWin(w)),
        ...[...group, ...redelivered].map((w, j) => (j % 2 === 0 ? sharded : other).applyWin(w)),
        ...(i % 200 === 0 ? [other.rebalance(PERIOD)] : []),
      ]);
    }
    await compare('concurrent, rebalancing');

    // 3. A catch-up by batches from the watermark, with a rebalance between two batches.
    t.equal(await sharded.appliedSeq(PERIOD), 0, 'live wins do not move the watermark');
    const log = wins.slice(0, 2_000);
    for (let i = 0; i < log.length; i += 500) {
      await single.applyBatch(log.slice(i, i + 500));
      await sharded.applyBatch(log.slice(i, i + 500));
      if (i === 1_000) await other.rebalance(PERIOD);
    }
    t.equal(await sharded.appliedSeq(PERIOD), 2_000);
    await compare('caught up');

    // 4. The rest live again after a last rebalance: scores keep growing past the bounds.
    await other.rebalance(PERIOD);
    for (const w of wins.slice(2_000, 2_400)) {
      const want = await single.applyWin(w);
      t.same(await sharded.applyWin(w), want, `answer for seq ${w.seq}`);
    }
    await compare('live again');

    // 5. A process dies in the middle of its placements: its connection to the last shard stops
    //    (a hook the test holds) with wins under way — homes applied or not, moves half done,
    //    leases taken — then it is cut off. The log redelivers its wins to the others; once its
    //    leases lapsed, the rebalance timer's recovery leaves the ranking exact.
    const hook = await startTcpHook(t, shards.at(-1)!.options.port!);
    const viaHook = new Redis(hook.port, '127.0.0.1', { maxRetriesPerRequest: 0 });
    viaHook.on('error', () => undefined);
    await viaHook.ping();
    const doomed = new ShardedRankingStore([...shards.slice(0, -1), viaHook], { ...options, leaseMs: 300 });
    const dying = wins.slice(2_400);
    hook.hold();
    const abandoned = dying.map((w) => doomed.applyWin(w).catch(() => undefined));
    await sleep(200);
    hook.cut();
    viaHook.disconnect();
    await Promise.all(abandoned);
    for (const w of dying) await single.applyWin(w);
    await Promise.all(dying.map((w, j) => (j % 2 === 0 ? sharded : other).applyWin(w)));
    await sleep(350);
    await other.recover(PERIOD);
    await compare('after a process died mid-placement');

    // 6. Every `fence` field pruned (a horizon of 1 ms): the floors now refuse every token handed
    //    out so far, and the wins that follow (concurrent, moves and a rebalance among them) are
    //    placed as before.
    const pruner = new ShardedRankingStore(shards, { ...options, fenceHorizonMs: 1 });
    await sleep(5);
    t.ok((await pruner.pruneFence(PERIOD)) > 0, 'fields pruned');
    const fields = await Promise.all(shards.map((r) => r.hlen(`${options.keyPrefix}{${PERIOD}}:fence`)));
    t.same(
      fields,
      shards.map(() => 0),
      'no field left',
    );
    const more: Win[] = Array.from({ length: 400 }, (_, i) => win(2_601 + i, pick(), points(), PERIOD));
    for (let i = 0; i < more.length; i += 40) {
      const group = more.slice(i, i + 40);
      await Promise.all([
        ...group.map((w) => single.applyWin(w)),
        ...group.map((w, j) => (j % 2 === 0 ? sharded : other).applyWin(w)),
        ...(i === 200 ? [other.rebalance(PERIOD)] : []),
      ]);
    }
    await compare('after the fence was pruned');
    t.equal(checks, 7);
    await single.drop(PERIOD);
    await sharded.drop(PERIOD);
  });
}
