/**
 * The RankingStore port's contract, as one suite that every adapter runs:
 * `rankingStoreSuite(t, open)` with a factory that opens a fresh, empty store with the given
 * tie-break in a namespace of its own (cleaning it up through `t.teardown`).
 */
import type { Test } from 'tap';
import type { Standing, TieBreak } from '../../src/core/standing.ts';
import type { Win } from '../../src/core/win.ts';
import type { RankingStore } from '../../src/ports.ts';

export type OpenRankingStore = (t: Test, tieBreak: TieBreak) => Promise<RankingStore>;

export function win(seq: number, userId: string, points: number, period = '2026-11'): Win {
  return { seq, period, userId, points, at: 1_790_000_000_000 + seq };
}

/** c reaches 9 at seq 4; a reaches 7 at seq 1, b at seq 3; d has 5. */
const TIED: readonly Win[] = [win(1, 'a', 7), win(2, 'b', 3), win(3, 'b', 4), win(4, 'c', 9), win(5, 'd', 5)];

async function applyAll(store: RankingStore, wins: readonly Win[]): Promise<Standing[]> {
  const answers: Standing[] = [];
  for (const w of wins) answers.push(await store.applyWin(w));
  return answers;
}

const sorted = (standings: readonly Standing[]) =>
  [...standings].sort((x, y) => x.rank - y.rank || x.userId.localeCompare(y.userId));

export function rankingStoreSuite(t: Test, open: OpenRankingStore): void {
  t.test('applyWin answers the score and the shared rank after the win', async (t) => {
    const store = await open(t, 'shared');
    const answers = await applyAll(store, TIED);
    t.same(answers, [
      { userId: 'a', score: 7, rank: 1 },
      { userId: 'b', score: 3, rank: 2 },
      { userId: 'b', score: 7, rank: 1 },
      { userId: 'c', score: 9, rank: 1 },
      { userId: 'd', score: 5, rank: 4 },
    ]);
    t.same(
      await store.standing('2026-11', 'b'),
      { userId: 'b', score: 7, rank: 2 },
      'equal scores share a rank',
    );
    t.same(sorted(await store.top('2026-11', 0, 10)), [
      { userId: 'c', score: 9, rank: 1 },
      { userId: 'a', score: 7, rank: 2 },
      { userId: 'b', score: 7, rank: 2 },
      { userId: 'd', score: 5, rank: 4 },
    ]);
    t.equal(await store.standing('2026-11', 'nobody'), undefined);
    t.equal(await store.standing('2027-01', 'a'), undefined, 'a period without a ranking');
  });

  t.test('earliest: the player who reached a score first ranks higher', async (t) => {
    const store = await open(t, 'earliest');
    await applyAll(store, TIED);
    t.same(await store.top('2026-11', 0, 10), [
      { userId: 'c', score: 9, rank: 1 },
      { userId: 'a', score: 7, rank: 2 },
      { userId: 'b', score: 7, rank: 3 },
      { userId: 'd', score: 5, rank: 4 },
    ]);
    t.same(await store.standing('2026-11', 'b'), { userId: 'b', score: 7, rank: 3 });
    t.same(await store.applyWin(win(6, 'a', 1)), { userId: 'a', score: 8, rank: 2 });
    t.same(await store.applyWin(win(7, 'b', 1)), { userId: 'b', score: 8, rank: 3 }, 'a reached 8 first');
  });

  t.test('a win applied again changes nothing and answers the standing', async (t) => {
    const store = await open(t, 'shared');
    await applyAll(store, TIED);
    t.same(await store.applyWin(TIED[0]!), { userId: 'a', score: 7, rank: 2 });
    await store.applyBatch(TIED);
    t.same(
      sorted(await store.top('2026-11', 0, 10)).map((s) => s.score),
      [9, 7, 7, 5],
      'a replay counts nothing',
    );
    t.equal(await store.players('2026-11'), 4);
  });

  t.test('wins of different players may be applied in any order', async (t) => {
    const inOrder = await open(t, 'earliest');
    const shuffled = await open(t, 'earliest');
    const wins = Array.from({ length: 40 }, (_, i) => win(i + 1, `u${i % 13}`, 1 + (i % 4)));
    await applyAll(inOrder, wins);
    // Each player's wins stay in seq order, players interleave in reverse.
    const byPlayer = new Map<string, Win[]>();
    for (const w of wins) byPlayer.set(w.userId, [...(byPlayer.get(w.userId) ?? []), w]);
    await applyAll(shuffled, [...byPlayer.values()].reverse().flat());
    t.same(await shuffled.top('2026-11', 0, 100), await inOrder.top('2026-11', 0, 100));
  });

  t.test('top pages by position; around gives n above and n below', async (t) => {
    const store = await open(t, 'earliest');
    // p0 has the most points, p9 the fewest.
    await store.applyBatch(Array.from({ length: 10 }, (_, i) => win(i + 1, `p${i}`, 100 - i)));
    const ids = (standings: readonly Standing[] | undefined) => standings?.map((s) => s.userId);
    t.same(ids(await store.top('2026-11', 0, 3)), ['p0', 'p1', 'p2']);
    t.same(await store.top('2026-11', 8, 5), [
      { userId: 'p8', score: 92, rank: 9 },
      { userId: 'p9', score: 91, rank: 10 },
    ]);
    t.same(await store.top('2026-11', 10, 5), [], 'past the end');
    t.same(await store.top('2027-01', 0, 10), [], 'a period without a ranking');
    t.same(ids(await store.around('2026-11', 'p5', 2)), ['p3', 'p4', 'p5', 'p6', 'p7']);
    t.same(
      ids(await store.around('2026-11', 'p0', 4)),
      ['p0', 'p1', 'p2', 'p3', 'p4'],
      'none above the first',
    );
    t.same(ids(await store.around('2026-11', 'p9', 1)), ['p8', 'p9'], 'none below the last');
    t.same(await store.around('2026-11', 'p4', 0), [{ userId: 'p4', score: 96, rank: 5 }]);
    t.equal(await store.around('2026-11', 'nobody', 4), undefined);
  });

  t.test('shared ranks in a page that starts inside a tie', async (t) => {
    const store = await open(t, 'shared');
    await store.applyBatch([win(1, 'x', 5), win(2, 'y', 3), win(3, 'z', 3), win(4, 'w', 3), win(5, 'v', 1)]);
    t.same(
      (await store.top('2026-11', 2, 3)).map((s) => [s.score, s.rank]),
      [
        [3, 2],
        [3, 2],
        [1, 5],
      ],
    );
    t.same(
      (await store.around('2026-11', 'v', 1))?.map((s) => s.rank),
      [2, 5],
    );
  });

  t.test('applyBatch moves appliedSeq; a catch-up from it is complete', async (t) => {
    const store = await open(t, 'shared');
    t.equal(await store.appliedSeq('2026-11'), 0, 'nothing applied');
    await store.applyBatch([win(1, 'a', 1), win(2, 'b', 1), win(3, 'a', 1)]);
    t.equal(await store.appliedSeq('2026-11'), 3);
    await store.applyWin(win(4, 'b', 2));
    const after = await store.appliedSeq('2026-11');
    t.ok(after >= 3 && after <= 4, 'a live win may or may not move it');
    // A catch-up re-reads from appliedSeq: what was applied already counts once.
    await store.applyBatch([win(4, 'b', 2), win(5, 'c', 1)].filter((w) => w.seq > after));
    t.same(sorted(await store.top('2026-11', 0, 10)), [
      { userId: 'b', score: 3, rank: 1 },
      { userId: 'a', score: 2, rank: 2 },
      { userId: 'c', score: 1, rank: 3 },
    ]);
    t.equal(await store.appliedSeq('2026-11'), 5);
  });

  t.test('periods, players, standings and drop', async (t) => {
    const store = await open(t, 'shared');
    t.same(await store.periods(), []);
    await store.applyBatch([win(1, 'a', 2), win(2, 'b', 1), win(3, 'c', 2)]);
    await store.applyWin(win(4, 'z', 1, '2026-12'));
    await store.applyWin(win(5, 'a', 1, '2026-10'));
    t.same(await store.periods(), ['2026-10', '2026-11', '2026-12'], 'oldest first');
    t.equal(await store.players('2026-11'), 3);
    const all: Standing[] = [];
    for await (const batch of store.standings('2026-11')) all.push(...batch);
    t.same(sorted(all), [
      { userId: 'a', score: 2, rank: 1 },
      { userId: 'c', score: 2, rank: 1 },
      { userId: 'b', score: 1, rank: 3 },
    ]);
    t.same(
      all.map((s) => s.rank),
      [1, 1, 3],
      'in rank order',
    );
    await store.drop('2026-11');
    t.same(await store.periods(), ['2026-10', '2026-12']);
    t.equal(await store.players('2026-11'), 0);
    t.equal(await store.standing('2026-11', 'a'), undefined);
    t.equal(await store.appliedSeq('2026-11'), 0);
    t.same(await store.top('2026-12', 0, 10), [{ userId: 'z', score: 1, rank: 1 }], 'other periods kept');
  });
}
