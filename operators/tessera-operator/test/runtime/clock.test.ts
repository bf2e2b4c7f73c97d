import t from 'tap';
import { clockFrom } from '../../src/runtime/clock.ts';

t.test('clockFrom shows its start at once, then runs at real speed', async (t) => {
  let real = 1_000_000;
  const start = Date.UTC(2026, 10, 30, 23, 59, 50);
  const clock = clockFrom(start, () => real);
  t.equal(clock.now(), start);
  real += 15_000;
  t.equal(clock.now(), start + 15_000, 'fifteen real seconds later it is past the month');
});
