import t from 'tap';
import { highestDense, inRankOrder, mergedInRankOrder } from '../../src/core/in-rank-order.ts';

t.test('by score descending, equal scores in seq order, scores past the dense limit first', async (t) => {
  // Players 0…5 (handles 15, 11, 12, 13, 14, 10); in seq order: 3, 0, 5, 1, 4, 2.
  const scores = Float64Array.from([5, 9, 5, 100, 2e6, 9]);
  const bySeq = Uint32Array.from([3, 0, 5, 1, 4, 2]);
  const handles = Int32Array.from([15, 11, 12, 13, 14, 10]);
  t.same([...inRankOrder(bySeq, scores, 1 << 20, handles)], [14, 13, 10, 11, 15, 12]);
  t.same([...inRankOrder(new Uint32Array(0), scores, 1 << 20, handles)], []);
  t.equal(highestDense(scores, 6, 1 << 20), 100);
  t.equal(highestDense(scores, 3, 1 << 20), 9, 'only the first count');
  t.equal(highestDense(scores, 6, 8), 5, 'below the limit only');
});

t.test('two runs in rank order merge as one sort of both would order them', async (t) => {
  // Handle h has score score[h] and seq seq[h].
  const score = [9, 9, 7, 7, 7, 3, 1, 9, 7, 2];
  const seq = [10, 40, 5, 30, 60, 20, 1, 25, 45, 50];
  const run = (handles: number[]) => Int32Array.from(handles);
  const a = run([0, 1, 2, 3, 4, 5]); // in rank order
  const b = run([7, 8, 9, 6]);
  const merged = mergedInRankOrder(
    { handles: a, scoreOf: (h) => score[h]! },
    { handles: b, scoreOf: (_, at) => score[b[at]!]! },
    (h) => seq[h]!,
  );
  const expected = [...a, ...b].sort((x, y) => score[y]! - score[x]! || seq[x]! - seq[y]!);
  t.same([...merged], expected);
  t.same(
    [
      ...mergedInRankOrder(
        { handles: a, scoreOf: (h) => score[h]! },
        { handles: run([]), scoreOf: () => 0 },
        (h) => seq[h]!,
      ),
    ],
    [...a],
  );
});
