import t from 'tap';
import { highestDense, inRankOrder } from '../../src/core/in-rank-order.ts';

t.test('by score descending, equal scores in seq order, scores past the dense limit first', async (t) => {
  // Players 0…5 (handles 10…15); in seq order: 3, 0, 5, 1, 4, 2.
  const scores = Float64Array.from([5, 9, 5, 100, 2e6, 9]);
  const bySeq = Uint32Array.from([3, 0, 5, 1, 4, 2]);
  t.same([...inRankOrder(bySeq, scores, 1 << 20, 10)], [14, 13, 15, 11, 10, 12]);
  t.same([...inRankOrder(new Uint32Array(0), scores, 1 << 20, 0)], []);
  t.equal(highestDense(scores, 6, 1 << 20), 100);
  t.equal(highestDense(scores, 3, 1 << 20), 9, 'only the first count');
  t.equal(highestDense(scores, 6, 8), 5, 'below the limit only');
});
