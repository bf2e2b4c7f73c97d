import { randomBytes } from 'node:crypto';
import { backend } from '@tessera/testkit';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { RedisRankingStore } from '../../../src/adapters/redis/redis-ranking-store.ts';
import { Ranking } from '../../../src/core/ranking.ts';
import type { Standing, TieBreak } from '../../../src/core/standing.ts';
import type { Win } from '../../../src/core/win.ts';
import { rankingStoreSuite, win } from '../../ports/ranking-store.suite.ts';

t.setTimeout(600_000);

const server = await backend('redis');
t.teardown(() => server.stop());
const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
t.teardown(() => redis.quit());

/** A key prefix of the test's own, its keys removed afterwards: the server may be shared. */
function namespace(t: Test): string {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  t.teardown(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  return keyPrefix;
}

function open(t: Test, tieBreak: TieBreak, keyPrefix = namespace(t)): RedisRankingStore {
  return new RedisRankingStore(redis, { tieBreak, keyPrefix });
}

t.test('the RankingStore port suite, on Redis', async (t) => {
  rankingStoreSuite(t, (t, tieBreak) => Promise.resolve(open(t, tieBreak)));
});

/** A small deterministic generator, so a failure can be replayed. */
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

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function coreStandings(ranking: Ranking): Standing[] {
  const all: Standing[] = [];
  ranking.forEachStanding((standing) => {
    all.push(standing);
  });
  return all;
}

/** Shared ranks list tied players in any order: compare them by rank, then id. */
const canonical = (standings: readonly Standing[]) =>
  [...standings].sort((x, y) => x.rank - y.rank || (x.userId < y.userId ? -1 : x.userId > y.userId ? 1 : 0));

for (const tieBreak of ['shared', 'earliest'] as const) {
  t.test(`${tieBreak}: ranks exact against the core Ranking on a random workload`, async (t) => {
    const random = rng(tieBreak === 'shared' ? 7 : 11);
    const store = open(t, tieBreak);
    const core = new Ranking(tieBreak);
    const players = Array.from({ length: 300 }, (_, i) => `player-${i.toString(36)}`);
    const wins: Win[] = Array.from({ length: 3_000 }, (_, i) =>
      win(i + 1, players[Math.floor(random() * random() * players.length)]!, 1 + Math.floor(random() * 3)),
    );
    // Live: wins in seq order, each answer compared with the core's standing after it; one in
    // ten is redelivered at once (an api retrying), which must count once.
    for (const w of wins.slice(0, 1_000)) {
      core.apply(w.seq, w.userId, w.points);
      const answer = await store.applyWin(w);
      t.same(answer, core.standing(w.userId), `answer for seq ${w.seq}`);
      if (random() < 0.1) t.same(await store.applyWin(w), answer, 'a redelivery changes nothing');
    }
    // Many api processes: the rest in any order at all, in parallel, with redeliveries.
    for (const w of wins.slice(1_000)) core.apply(w.seq, w.userId, w.points);
    const rest = shuffle([...wins.slice(1_000), ...wins.slice(0, 200)], random);
    for (let i = 0; i < rest.length; i += 50)
      await Promise.all(rest.slice(i, i + 50).map((w) => store.applyWin(w)));

    const expected = coreStandings(core);
    const top = await store.top('2026-11', 0, players.length);
    if (tieBreak === 'earliest') t.same(top, expected, 'the whole ranking, in order');
    else t.same(canonical(top), canonical(expected), 'the whole ranking, ranks and scores');
    for (const player of players.filter(() => random() < 0.2)) {
      t.same(await store.standing('2026-11', player), core.standing(player), `standing of ${player}`);
      const around = await store.around('2026-11', player, 4);
      const want = core.around(player, 4);
      if (tieBreak === 'earliest') t.same(around, want, `around ${player}`);
      else {
        // Which tied players surround one depends on the order of ties: the window must be the
        // ranking's own positions around the player (the ranking itself is checked above).
        const position = top.findIndex((s) => s.userId === player);
        const window = position < 0 ? undefined : top.slice(Math.max(0, position - 4), position + 5);
        t.same(around, window, `around ${player}`);
      }
    }
    for (const offset of [0, 7, 100, 290]) {
      const page = await store.top('2026-11', offset, 10);
      t.same(
        page.map((s) => [s.score, s.rank]),
        expected.slice(offset, offset + 10).map((s) => [s.score, s.rank]),
        `page at ${offset}`,
      );
    }
  });
}

t.test("one player's wins applied out of seq order by two processes all count", async (t) => {
  const store = open(t, 'earliest');
  await store.applyWin(win(11, 'alice', 2));
  const late = await store.applyWin(win(10, 'alice', 3));
  t.same(late, { userId: 'alice', score: 5, rank: 1 }, 'the earlier win, applied second, counts');
  await store.applyWin(win(12, 'bob', 5));
  t.same(
    (await store.top('2026-11', 0, 2)).map((s) => s.userId),
    ['alice', 'bob'],
    'alice reached 5 at seq 11, before bob at 12',
  );
});

t.test('the watermark: a catch-up from appliedSeq never skips a win and counts none twice', async (t) => {
  const keyPrefix = namespace(t);
  const store = open(t, 'shared', keyPrefix);
  const log = Array.from({ length: 20 }, (_, i) => win(i + 1, `u${i % 4}`, 1));
  // Two api processes: odd seqs applied, even seqs appended but their api crashed before applying.
  for (const w of log.filter((w) => w.seq % 2 === 1)) await store.applyWin(w);
  const from = await store.appliedSeq('2026-11');
  t.equal(from, 0, 'the highest applied seq (19) is not a safe start');
  await store.applyBatch(log.filter((w) => w.seq > from));
  t.equal(await store.appliedSeq('2026-11'), 20);
  t.same(
    (await store.top('2026-11', 0, 10)).map((s) => s.score),
    [5, 5, 5, 5],
    'every win once',
  );
  t.equal(
    await redis.zcard(`${keyPrefix}{2026-11}:applied`),
    0,
    'the memory of live seqs is dropped below the watermark',
  );
});

t.test('earliest: a score past the encoding is refused, not ranked wrongly', async (t) => {
  const store = open(t, 'earliest');
  await store.applyWin(win(1, 'big', 2 ** 18 - 1));
  await t.rejects(store.applyWin(win(2, 'big', 1)), /LB_SCORE_RANGE/);
  t.same(await store.standing('2026-11', 'big'), { userId: 'big', score: 2 ** 18 - 1, rank: 1 });
  await t.rejects(store.applyWin(win(2 ** 35, 'late', 1)), /LB_SCORE_RANGE/);
});
