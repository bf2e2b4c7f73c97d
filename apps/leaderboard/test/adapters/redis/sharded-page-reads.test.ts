// Pages read while players move or join, with the writes put at the exact point of the read that
// they could make wrong: after its first looks (which give each shard's size) and before the page
// (or before the check that follows the page). A reader store's connections go through a gate on
// that command; a writer store on the same keys writes meanwhile (issue #9: a `top` of 60 players
// answered 20 under load).
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import t from 'tap';
import { ShardedRankingStore } from '../../../src/adapters/redis/sharded-ranking-store.ts';
import type { Standing } from '../../../src/core/standing.ts';
import type { Win } from '../../../src/core/win.ts';
import { win } from '../../ports/ranking-store.suite.ts';
import { commandGate, type CommandGate } from './command-gate.ts';
import { startRedisServers } from './redis-servers.ts';

t.setTimeout(120_000);

const servers = await startRedisServers(t, 3);
const PERIOD = '2026-11';

/** A writer and a reader (its connections through the gate) of one ranking, with `wins` applied. */
async function ranking(
  shards: readonly Redis[],
  initialBounds: readonly number[],
  wins: readonly Win[],
  gate: CommandGate,
) {
  const options = {
    tieBreak: 'shared',
    keyPrefix: `t${randomBytes(4).toString('hex')}:lb:`,
    initialBounds,
  } as const;
  const writer = new ShardedRankingStore(shards, options);
  await writer.applyBatch(wins);
  const reader = new ShardedRankingStore(
    shards.map((r) => gate.wrap(r)),
    options,
  );
  const where = (user: string) =>
    Promise.all(
      shards.map(async (r) => (await r.zscore(`${options.keyPrefix}{${PERIOD}}:rank`, user)) !== null),
    );
  return { writer, reader, where, options };
}

const rows = (standings: readonly Standing[]) => standings.map((s) => [s.userId, s.score, s.rank]);

/** A read held at the gate (past its looks) while `write` runs, then let through: its answer. */
async function heldRead<T>(gate: CommandGate, read: Promise<T>, write: () => Promise<unknown>): Promise<T> {
  await gate.reached;
  await write();
  gate.open();
  return read;
}

/** A win applied and settled (its moves between shards done). */
async function place(store: ShardedRankingStore, w: Win): Promise<void> {
  await store.applyWin(w);
  await store.settle();
}

t.test('a page cut short by players moved below it after its looks is read again', async (t) => {
  const gate = commandGate('zrevrange');
  // Shard 0 from 20, shard 1 from 10, shard 2 empty.
  const { writer, reader, where } = await ranking(
    servers,
    [20, 10],
    [win(1, 'a', 30), win(2, 'b', 25), win(3, 'c', 15), win(4, 'd', 14), win(5, 'e', 13), win(6, 'f', 12)],
    gate,
  );
  t.same(await where('e'), [false, true, false]);
  const page = await heldRead(gate, reader.top(PERIOD, 0, 100), async () => {
    // The looks are taken (sizes 2, 4, 0): the rebalance sends e and f down to shard 2, which
    // the page will not read, and their steps touch nothing as high as d (the page's last entry then).
    t.same(await writer.rebalance(PERIOD), [25, 14]);
    t.same(await where('e'), [false, false, true], 'e moved down to the shard counted empty');
  });
  t.same(rows(page), [
    ['a', 30, 1],
    ['b', 25, 2],
    ['c', 15, 3],
    ['d', 14, 4],
    ['e', 13, 5],
    ['f', 12, 6],
  ]);
});

t.test('a full page is read again when a player joins a shard it reads to the end', async (t) => {
  const gate = commandGate('zrevrange');
  const { writer, reader } = await ranking(
    servers.slice(0, 2),
    [20],
    [win(1, 'a', 30), win(2, 'b', 25), win(3, 'c', 21), win(4, 'd', 10), win(5, 'e', 5)],
    gate,
  );
  // Sizes 3 and 2: the page reads 3 from shard 0 and 1 from shard 1. n joins shard 0 above c,
  // which the 3 read from shard 0 then leave out, though it ranks above d.
  const page = await heldRead(gate, reader.top(PERIOD, 0, 4), () => place(writer, win(6, 'n', 28)));
  t.same(rows(page), [
    ['a', 30, 1],
    ['n', 28, 2],
    ['b', 25, 3],
    ['c', 21, 4],
  ]);
});

t.test('a page is read again when a player joins above it before its check', async (t) => {
  // The looks and the page go through; the check (the next two scripts) waits at the gate.
  const gate = commandGate('evalsha', 2);
  const { writer, reader } = await ranking(
    servers.slice(0, 2),
    [20],
    [win(1, 'a', 30), win(2, 'b', 25), win(3, 'c', 21), win(4, 'd', 10)],
    gate,
  );
  // The page read b and c at positions 1 and 2; n joins above them, and the check counts it
  // above b: b would be ranked 3 and c, with a lower score, 3 too.
  const page = await heldRead(gate, reader.top(PERIOD, 1, 2), () => place(writer, win(5, 'n', 35)));
  t.same(rows(page), [
    ['a', 30, 2],
    ['b', 25, 3],
  ]);
});

t.test('a page whose shards fell out of order after its looks is read again, merged', async (t) => {
  const gate = commandGate('zrevrange');
  const { reader, where, options } = await ranking(
    servers.slice(0, 2),
    [20],
    [win(1, 'a', 30), win(2, 'b', 25), win(3, 'c', 18), win(4, 'd', 15)],
    gate,
  );
  // A placer with bounds from before a rebalance (here its own, 40): d's new score stays on shard
  // 1, written in place (no step), above b on shard 0.
  const stale = new ShardedRankingStore(servers.slice(0, 2), { ...options, initialBounds: [40] });
  const page = await heldRead(gate, reader.top(PERIOD, 0, 3), async () => {
    await place(stale, win(5, 'd', 12));
    t.same(await where('d'), [false, true]);
  });
  t.same(rows(page), [
    ['a', 30, 1],
    ['d', 27, 2],
    ['b', 25, 3],
  ]);
});

t.test('a rank is not read again for a player joining above it', async (t) => {
  // The first looks go through; the second (the rank's count) waits at the gate.
  const gate = commandGate('evalsha', 2);
  const { writer, reader } = await ranking(
    servers.slice(0, 2),
    [20],
    [win(1, 'a', 30), win(2, 'b', 25), win(3, 'c', 21), win(4, 'd', 10)],
    gate,
  );
  const rank = await heldRead(gate, reader.standing(PERIOD, 'c'), () => place(writer, win(5, 'n', 28)));
  t.same(rank, { userId: 'c', score: 21, rank: 4 }, 'n counted: it joined before the count');
  t.equal(gate.calls(), 4, 'two looks per shard: not retried (n is no player counted twice)');
});

t.test('a read that cannot settle fails with a coded 503, not a page', async (t) => {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  const store = new ShardedRankingStore(servers, {
    tieBreak: 'shared',
    keyPrefix,
    initialBounds: [20, 10],
    leaseMs: 100,
  });
  await store.applyBatch([win(1, 'a', 30), win(2, 'b', 15)]);
  // A move into shard 0 that never ends and is not yet past its deadline: no one takes it over.
  await servers[0]!.zadd(`${keyPrefix}{${PERIOD}}:moving`, Date.now() + 600_000, 'a');
  await t.rejects(store.top(PERIOD, 0, 10), { code: 'LB_STORE_UNAVAILABLE', status: 503 });
  await t.rejects(store.standing(PERIOD, 'b'), { code: 'LB_STORE_UNAVAILABLE', status: 503 });
});
