// Saves and restores: the entries a checkpoint takes and puts back.
import t from 'tap';
import { takenEntries } from '../helpers/taken-entries.ts';
import { Ranking } from '../../src/core/ranking.ts';
import { board } from './board.ts';

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
