import t from 'tap';
import { sortedBySeq } from '../../src/core/sorted-by-seq.ts';

t.test('indices in ascending seq order, by radix sort and past 2^32 by comparison', async (t) => {
  t.same([...sortedBySeq(Float64Array.from([70_000, 3, 65_536, 1]))], [3, 1, 2, 0]);
  t.same([...sortedBySeq(Float64Array.from([2 ** 40, 5, 2 ** 33]))], [1, 2, 0], 'a span of 2^32 or more');
  t.same([...sortedBySeq(new Float64Array(0))], []);
});
