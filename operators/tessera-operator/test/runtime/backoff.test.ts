import t from 'tap';
import { backoffDelay } from '../../src/runtime/backoff.ts';

t.test('doubles from the base and stops at the cap', async (t) => {
  const policy = { baseMs: 100, maxMs: 1_000 };
  t.same(
    [0, 1, 2, 3, 4, 5, 50].map((n) => backoffDelay(n, policy)),
    [0, 100, 200, 400, 800, 1_000, 1_000],
  );
  t.equal(backoffDelay(10_000), 300_000, 'no overflow for many failures');
});
