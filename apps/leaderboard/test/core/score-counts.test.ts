import t from 'tap';
import { ScoreCounts } from '../../src/core/score-counts.ts';

t.test('counts above and below, and the score at each position, while the tree grows', async (t) => {
  const counts = new ScoreCounts(1 << 16);
  const scores = [5, 5, 9, 1, 40_000, 3000, 9, 0];
  for (const score of scores) counts.add(score, 1);
  const sorted = [...scores].sort((a, b) => b - a);
  t.same(
    sorted.map((_, position) => counts.scoreAt(position)),
    sorted,
  );
  t.equal(counts.countAbove(9), 2);
  t.equal(counts.countBelow(9), 4);
  t.equal(counts.countOf(9), 2);
  t.equal(counts.countAbove(40_000), 0);
  t.equal(counts.countBelow(65_535), 8);
  counts.add(40_000, -1);
  t.equal(counts.scoreAt(0), 3000);
  t.equal(counts.total, 7);
});

t.test('a score at or beyond the limit is refused (the ranking keeps those elsewhere)', async (t) => {
  const counts = new ScoreCounts(64);
  counts.add(63, 1);
  t.throws(() => counts.add(64, 1), RangeError);
  t.throws(() => new ScoreCounts(100), RangeError);
});

t.test('a bulk add gives the same counts as adding one by one, and the tree still grows', async (t) => {
  const oneByOne = new ScoreCounts(1 << 12);
  const bulk = new ScoreCounts(1 << 12);
  for (const score of [3, 3, 700]) {
    oneByOne.add(score, 1);
    bulk.add(score, 1);
  }
  const added = new Int32Array(3000);
  for (const score of [0, 3, 9, 9, 2999]) {
    added[score]!++;
    oneByOne.add(score, 1);
  }
  bulk.addAll(added);
  bulk.addAll(new Int32Array(5));
  t.equal(bulk.total, oneByOne.total);
  for (let position = 0; position < oneByOne.total; position++)
    t.equal(bulk.scoreAt(position), oneByOne.scoreAt(position), `score at ${position}`);
  for (const score of [0, 3, 9, 700, 2999, 4000])
    t.same(
      [bulk.countAbove(score), bulk.countOf(score)],
      [oneByOne.countAbove(score), oneByOne.countOf(score)],
    );
  bulk.add(9, -1);
  oneByOne.add(9, -1);
  t.equal(bulk.countAbove(3), oneByOne.countAbove(3));
});
