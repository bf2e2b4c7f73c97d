// Placement of many players at once and the capacity it leaves.
import t from 'tap';
import { takenEntries } from '../helpers/taken-entries.ts';
import { Ranking } from '../../src/core/ranking.ts';
import { mix32 } from '../../src/core/typed-arrays.ts';

t.test('a few players met while many are placed are placed one by one, as a merge would', async (t) => {
  const wins: Array<[string, number]> = Array.from({ length: 700 }, (_, i) => [
    `u${i < 600 ? i : i % 607}`,
    1 + (i % 3),
  ]);
  const readEach = new Ranking('earliest', { bulkPlacement: 3 });
  const batched = new Ranking('earliest', { bulkPlacement: 3 });
  wins.forEach(([user, points], i) => {
    readEach.apply(i + 1, user, points);
    readEach.standing(user);
    batched.apply(i + 1, user, points);
    if (i < 600) batched.standing(user); // then 100 wins, 7 of them new players, before the next read
  });
  t.same(batched.top(0, 700), readEach.top(0, 700));
});

t.test('reserve changes no result, and a replay ends with its capacity trimmed to the count', async (t) => {
  const n = 60_000;
  const id = (i: number): string => (i * 40503).toString(16).padStart(24, '0');
  const wins = Array.from(
    { length: n + n / 2 },
    (_, i) => [id(i < n ? i : (i * 7) % n), 1 + (i % 5)] as const,
  );
  const plain = new Ranking('earliest');
  const reserved = new Ranking('earliest');
  reserved.reserve(n);
  wins.forEach(([user, points], i) => {
    plain.apply(i + 1, user, points);
    reserved.apply(i + 1, user, points);
  });
  t.same(reserved.top(0, n), plain.top(0, n));
  t.same(reserved.standing(id(12_345)), plain.standing(id(12_345)));
  // 12 (id) + at most 5 (slots) + 4 (seq) + 4 (blocks) + 2 (block of each) + bits and small arrays.
  t.ok(plain.byteLength / n < 28, `${(plain.byteLength / n).toFixed(1)} bytes per player after the replay`);
  t.ok(reserved.byteLength / n < 28, `${(reserved.byteLength / n).toFixed(1)} bytes per player, reserved`);
  // More players after the trim: the arrays grow again and nothing is lost.
  for (let i = 0; i < 100; i++) plain.apply(wins.length + 1 + i, `late_${i}`, 3);
  t.equal(plain.size, n + 100);
  t.same(plain.standing('late_99')?.score, 3);
  t.same(plain.standing(id(0))?.score, reserved.standing(id(0))?.score);
});

t.test('a replay reserved for its players grows no column as it applies its wins', async (t) => {
  for (const tieBreak of ['shared', 'earliest'] as const) {
    const n = 100_000;
    const id = (i: number): string =>
      `${mix32(i).toString(16).padStart(8, '0')}${i.toString(16).padStart(16, '0')}`;
    const ranking = new Ranking(tieBreak);
    ranking.reserve(n);
    const reserved = ranking.byteLength;
    // Each player twice: a new player, then a known one still waiting to be placed.
    for (let i = 0; i < 2 * n; i++) ranking.apply(i + 1, id(i % n), 1 + (i % 3));
    // Only `blockOf` may change: 2 bytes more a slot (the high halves) once a waiting index passes
    // 2 bytes (not a growth). A rehash or a column grown would add at least 14 bytes a slot.
    const slots = Math.ceil(n / 0.84) + 1;
    t.ok(
      ranking.byteLength - reserved <= 2 * slots,
      `${tieBreak}: the arrays sized by the reserve held the replay (+${ranking.byteLength - reserved} bytes)`,
    );
    t.equal(ranking.size, n);
    t.equal(ranking.standing(id(5))?.score, 1 + (5 % 3) + 1 + ((n + 5) % 3));
    t.ok(ranking.byteLength / n < 28, `${(ranking.byteLength / n).toFixed(1)} bytes per player placed`);
  }
});

t.test(
  'more than 65,536 players waiting at once (their pair indices past 2 bytes) are scored, saved and placed right',
  async (t) => {
    const n = 70_000;
    const id = (i: number): string => `w${i}`;
    // One by one (no bulk placement) and in bulk: the waiting scores are read back either way.
    const oneByOne = new Ranking('earliest', { bulkPlacement: 1 << 30 });
    const bulk = new Ranking('earliest');
    const expected = new Map<string, number>();
    let seq = 0;
    for (const ranking of [oneByOne, bulk]) ranking.apply(++seq, 'placed-first', 3);
    oneByOne.top(0, 1);
    bulk.top(0, 1);
    expected.set('placed-first', 3);
    for (let i = 0; i < n; i++) {
      seq++;
      for (const ranking of [oneByOne, bulk]) ranking.apply(seq, id(i), 1 + (i % 5));
      expected.set(id(i), 1 + (i % 5));
    }
    // Wins of waiting players whose pairs lie past index 65,535 and below it.
    for (let i = n - 10; i < n; i++) {
      seq++;
      for (const ranking of [oneByOne, bulk]) ranking.apply(seq, id(i), 100);
      expected.set(id(i), expected.get(id(i))! + 100);
    }
    seq++;
    for (const ranking of [oneByOne, bulk]) ranking.apply(seq, id(3), 50);
    expected.set(id(3), expected.get(id(3))! + 50);
    const saved = takenEntries(oneByOne);
    t.equal(saved.length, n + 1);
    t.equal(
      saved.filter((e) => e.score !== expected.get(e.userId)).length,
      0,
      'a waiting player is saved with their score',
    );
    t.same(oneByOne.top(0, n + 1), bulk.top(0, n + 1), 'placed one by one as in bulk');
    const ranks = bulk.top(0, n + 1);
    t.same(
      ranks.slice(0, 11).map((s) => s.userId),
      [...Array.from({ length: 10 }, (_, k) => id(n - 10 + k)), id(3)].sort(
        (a, b) => expected.get(b)! - expected.get(a)! || Number(a.slice(1)) - Number(b.slice(1)),
      ),
    );
    t.equal(
      ranks.filter((s) => s.score !== expected.get(s.userId)).length,
      0,
      'every score as the wins made it',
    );
  },
);
