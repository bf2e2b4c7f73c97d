import t from 'tap';
import { sortedBySeq } from '../../src/core/sorted-by-seq.ts';

t.test('indices in ascending seq order, by radix sort and past 2^32 by comparison', async (t) => {
  t.same([...sortedBySeq(Float64Array.from([70_000, 3, 65_536, 1]))], [3, 1, 2, 0]);
  t.same([...sortedBySeq(Float64Array.from([2 ** 40, 5, 2 ** 33]))], [1, 2, 0], 'a span of 2^32 or more');
  t.same([...sortedBySeq(new Float64Array(0))], []);
});

t.test('many seqs (the radix sort) come out as a comparison sort orders them', async (t) => {
  const seqs = Float64Array.from({ length: 5000 }, (_, i) => 1_000_000 + ((i * 7919) % 5000) * 97);
  const expected = Uint32Array.from({ length: seqs.length }, (_, i) => i).sort((a, b) => seqs[a]! - seqs[b]!);
  t.same([...sortedBySeq(seqs)], [...expected]);
});

t.test('seqs already in order come back as they are; one out of place is still sorted', async (t) => {
  const ascending = Float64Array.from({ length: 3000 }, (_, i) => 10 + i * 3);
  t.same([...sortedBySeq(ascending)], [...ascending.keys()]);
  ascending[2999] = 5; // the last one goes first
  const sorted = [...sortedBySeq(ascending)];
  t.same(sorted.slice(0, 3), [2999, 0, 1]);
  t.equal(sorted.length, 3000);
});
