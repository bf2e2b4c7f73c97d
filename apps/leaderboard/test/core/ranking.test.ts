import t from 'tap';
import { takenEntries } from '../helpers/taken-entries.ts';
import { Ranking } from '../../src/core/ranking.ts';
import { mix32 } from '../../src/core/typed-arrays.ts';

function board(tieBreak: 'shared' | 'earliest', wins: Array<[string, number]>): Ranking {
  const ranking = new Ranking(tieBreak);
  wins.forEach(([user, points], i) => ranking.apply(i + 1, user, points));
  return ranking;
}

t.test('a new player starts at 0 and later points add up', async (t) => {
  const ranking = board('shared', [
    ['alice', 3],
    ['alice', 2],
  ]);
  t.same(ranking.standing('alice'), { userId: 'alice', score: 5, rank: 1 });
  t.equal(ranking.size, 1);
});

t.test('equal scores share a rank (standard competition ranking: 9, 7, 7, 5 → 1, 2, 2, 4)', async (t) => {
  const ranking = board('shared', [
    ['a', 9],
    ['b', 7],
    ['c', 7],
    ['d', 5],
  ]);
  t.same(
    ranking.top(0, 10).map((s) => [s.userId, s.score, s.rank]),
    [
      ['a', 9, 1],
      ['b', 7, 2],
      ['c', 7, 2],
      ['d', 5, 4],
    ],
  );
  t.equal(ranking.standing('c')?.rank, 2);
  t.equal(ranking.standing('d')?.rank, 4);
});

t.test('tie-break earliest: who reached the score first ranks higher and ranks are distinct', async (t) => {
  const ranking = board('earliest', [
    ['b', 7],
    ['a', 9],
    ['c', 5],
    ['c', 2], // c reaches 7 after b did
  ]);
  t.same(
    ranking.top(0, 10).map((s) => [s.userId, s.rank]),
    [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ],
  );
  ranking.apply(5, 'b', 2); // b reaches 9 after a
  t.same(
    ranking.top(0, 3).map((s) => s.userId),
    ['a', 'b', 'c'],
  );
});

t.test('a redelivered win (seq already applied) changes nothing', async (t) => {
  const ranking = board('shared', [['alice', 3]]);
  t.equal(ranking.apply(1, 'alice', 3), false);
  t.equal(ranking.standing('alice')?.score, 3);
  t.equal(ranking.appliedSeq, 1);
});

t.test('top honours offset and limit', async (t) => {
  const ranking = board(
    'shared',
    Array.from({ length: 30 }, (_, i): [string, number] => [`p${i}`, i + 1]),
  );
  t.same(
    ranking.top(0, 10).map((s) => s.score),
    [30, 29, 28, 27, 26, 25, 24, 23, 22, 21],
  );
  t.same(
    ranking.top(25, 10).map((s) => s.rank),
    [26, 27, 28, 29, 30],
  );
  t.same(ranking.top(40, 10), []);
});

t.test('around gives up to n above and n below, clipped at both ends', async (t) => {
  const ranking = board(
    'shared',
    Array.from({ length: 10 }, (_, i): [string, number] => [`p${i}`, 10 - i]),
  );
  t.same(
    ranking.around('p5', 2)?.map((s) => s.userId),
    ['p3', 'p4', 'p5', 'p6', 'p7'],
  );
  t.same(
    ranking.around('p0', 4)?.map((s) => s.userId),
    ['p0', 'p1', 'p2', 'p3', 'p4'],
  );
  t.same(
    ranking.around('p9', 1)?.map((s) => s.userId),
    ['p8', 'p9'],
  );
  t.equal(ranking.around('nobody', 4), undefined);
  t.equal(ranking.standing('nobody'), undefined);
});

t.test('restore from saved entries plus replay equals a straight run', async (t) => {
  const wins: Array<[string, number]> = Array.from({ length: 200 }, (_, i) => [
    `u${(i * 7) % 23}`,
    (i % 4) + 1,
  ]);
  const straight = board('earliest', wins);

  // The save claims seq 100 but its entries already hold wins up to 120: replay must not count them twice.
  const first = board('earliest', wins.slice(0, 120));
  const saved = takenEntries(first);
  const restored = new Ranking('earliest');
  for (const entry of saved) restored.restore(entry);
  restored.restoredUpTo(100);
  wins.forEach(([user, points], i) => {
    if (i + 1 > 100) restored.apply(i + 1, user, points);
  });

  t.same(restored.top(0, 100), straight.top(0, 100));
  t.equal(restored.appliedSeq, 200);
});

t.test('players met since the last read are saved with their scores before they are placed', async (t) => {
  const ranking = new Ranking('shared');
  ranking.apply(1, 'a', 5);
  t.same(ranking.standing('a'), { userId: 'a', score: 5, rank: 1 });
  ranking.takeChanges();
  // No read after these: b and c wait to be placed; a is placed and moves at once.
  ranking.apply(2, 'b', 3);
  ranking.apply(3, 'c', 2);
  ranking.apply(4, 'b', 4);
  ranking.apply(5, 'a', 1);
  t.equal(ranking.apply(4, 'b', 4), false, 'a redelivered win of a waiting player is dropped');
  t.equal(ranking.size, 3);
  const entries = takenEntries(ranking);
  t.same(
    entries.sort((x, y) => x.userId.localeCompare(y.userId)),
    [
      { userId: 'a', score: 6, seq: 5 },
      { userId: 'b', score: 7, seq: 4 },
      { userId: 'c', score: 2, seq: 3 },
    ],
  );
  t.same(
    ranking.top(0, 10).map((s) => [s.userId, s.score, s.rank]),
    [
      ['b', 7, 1],
      ['a', 6, 2],
      ['c', 2, 3],
    ],
  );
});

t.test(
  'takeChanges hands over each changed player once, then nothing; a save ended unsaved gives them back',
  async (t) => {
    const ranking = board('shared', [
      ['a', 1],
      ['b', 1],
      ['a', 1],
    ]);
    const taken = ranking.takeChanges();
    const read = (): string[] =>
      Array.from({ length: taken.length }, (_, i) => `${taken.entryAt(i).userId}:${taken.entryAt(i).score}`);
    t.same(read().sort(), ['a:2', 'b:1']);
    t.equal(ranking.takeChanges().length, 0);
    taken.end(false);
    t.same(
      takenEntries(ranking)
        .map((e) => e.userId)
        .sort(),
      ['a', 'b'],
    );
    taken.end(false);
    t.equal(ranking.takeChanges().length, 0, 'a second end gives nothing back');
  },
);

for (const tieBreak of ['shared', 'earliest'] as const) {
  t.test(`a save's list follows the players when every player is renumbered (${tieBreak})`, async (t) => {
    // renumberEvery: 1 gives every player a new handle at each new player (see RankingOptions).
    const ranking = new Ranking(tieBreak, { renumberEvery: 1, blockSize: 4, denseScores: 16 });
    const expected = new Map<string, { score: number; seq: number }>();
    let seq = 0;
    const win = (userId: string, points: number): void => {
      ranking.apply(++seq, userId, points);
      expected.set(userId, { score: (expected.get(userId)?.score ?? 0) + points, seq });
    };
    for (let i = 0; i < 40; i++) win(`p${i}`, 1 + (i % 5) + (i % 9 === 0 ? 20 : 0));
    ranking.top(0, 1); // placed: the renumbering moves them in the blocks too
    for (let i = 0; i < 40; i += 3) win(`p${i}`, 2);
    for (let i = 40; i < 50; i++) win(`p${i}`, 3); // waiting to be placed when the save takes them
    const taken = ranking.takeChanges();
    const before = new Map(expected);
    for (let i = 50; i < 60; i++) win(`p${i}`, 1 + (i % 3)); // ten renumberings while the save is held
    const entries = Array.from({ length: taken.length }, (_, i) => taken.entryAt(i));
    t.same(
      entries.map((e) => [e.userId, e.score, e.seq]).sort(),
      [...before].map(([userId, e]) => [userId, e.score, e.seq]).sort(),
      "the saved entries are exactly the taken players' id, score and seq",
    );
    taken.end(false);
    t.same(
      takenEntries(ranking)
        .map((e) => e.userId)
        .sort(),
      [...expected.keys()].sort(),
      'an unsaved end gives back the taken players under their new handles, beside the new ones',
    );
    const plain = new Ranking(tieBreak, { blockSize: 4, denseScores: 16 });
    for (const [userId, e] of [...expected].sort(([, a], [, b]) => a.seq - b.seq))
      plain.restore({ userId, ...e });
    plain.restoredUpTo(seq);
    t.same(ranking.top(0, 100), plain.top(0, 100), 'the renumbered ranking reads as one never renumbered');
  });
}

t.test('forEachStanding walks every player in rank order', async (t) => {
  const ranking = board('shared', [
    ['a', 2],
    ['b', 5],
    ['c', 2],
  ]);
  const seen: string[] = [];
  ranking.forEachStanding((s) => {
    seen.push(`${s.userId}:${s.rank}`);
  });
  t.same(seen, ['b:1', 'a:2', 'c:2']);
});

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

t.test(
  'a shared rank read from a block inside one score run, or across runs, matches the order',
  async (t) => {
    // Placed in bulk into full blocks of 4 over runs of 1 to 9 players, high scores first: some
    // blocks lie inside one run (the score is read off the block), some straddle two runs or the
    // high scores (the player is looked for in it). Then wins move players and split blocks.
    const ranking = new Ranking('shared', { blockSize: 4, denseScores: 16, bulkPlacement: 3 });
    let seq = 0;
    const runs = [2, 9, 1, 5, 3, 7, 4, 6, 8];
    let player = 0;
    runs.forEach((length, run) => {
      for (let i = 0; i < length; i++) ranking.apply(++seq, `p${player++}`, run === 0 ? 30 : 10 - run);
    });
    const agrees = (): number => {
      let wrong = 0;
      for (const expected of ranking.top(0, ranking.size)) {
        const read = ranking.standing(expected.userId)!;
        if (read.score !== expected.score || read.rank !== expected.rank) wrong++;
      }
      return wrong;
    };
    t.equal(agrees(), 0, 'after a bulk placement');
    for (let i = 0; i < player; i += 4) ranking.apply(++seq, `p${i}`, 1 + (i % 3));
    t.equal(agrees(), 0, 'after wins');
    const all = ranking.top(0, ranking.size);
    const saved = takenEntries(ranking);
    t.same(
      saved.map((e) => e.score).sort((a, b) => a - b),
      all.map((s) => s.score).sort((a, b) => a - b),
    );
  },
);

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
    // Only `blockOf` may change: 2 bytes more a slot once a waiting index passes 2 bytes (a copy,
    // not a growth). A rehash or a column grown would add at least 12 bytes a slot.
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

t.test('a player restored twice before placement keeps the last saved entry', async (t) => {
  const ranking = new Ranking('shared');
  ranking.restore({ userId: 'a', score: 4, seq: 1 });
  ranking.restore({ userId: 'b', score: 2, seq: 2 });
  ranking.restore({ userId: 'a', score: 7, seq: 3 });
  ranking.restoredUpTo(3);
  t.same(ranking.top(0, 10), [
    { userId: 'a', score: 7, rank: 1 },
    { userId: 'b', score: 2, rank: 2 },
  ]);
  t.equal(ranking.size, 2);
});
