import t from 'tap';
import { seededRandom } from '../src/seeded-random.ts';

t.test('the same seed gives the same stream, always within [0, n)', async (t) => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const first = Array.from({ length: 1000 }, () => a(10));
  t.same(
    Array.from({ length: 1000 }, () => b(10)),
    first,
  );
  t.ok(first.every((v) => Number.isInteger(v) && v >= 0 && v < 10));
  t.equal(new Set(first).size, 10, 'every value appears');
  t.not(seededRandom(43)(1_000_000), seededRandom(42)(1_000_000), 'another seed, another stream');
  t.ok(seededRandom(0)(100) >= 0, 'seed 0 does not stall at zero');
});
