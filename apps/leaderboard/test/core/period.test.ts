import t from 'tap';
import { comparePeriods, isPeriod, periodClock } from '../../src/core/period.ts';

t.test('the period is the calendar month in the configured zone', async (t) => {
  const instant = Date.UTC(2026, 10, 30, 23, 30); // 2026-11-30 23:30 UTC
  t.equal(periodClock('UTC')(instant), '2026-11');
  t.equal(periodClock('Asia/Tokyo')(instant), '2026-12');
  t.equal(periodClock('America/Los_Angeles')(Date.UTC(2026, 11, 1, 5)), '2026-11');
});

t.test('an unknown zone is refused', async (t) => {
  t.throws(() => periodClock('Mars/Olympus'), RangeError);
});

t.test('periods are YYYY-MM and sort as text', async (t) => {
  t.ok(isPeriod('2026-01'));
  t.notOk(isPeriod('2026-13'));
  t.notOk(isPeriod('2026-1'));
  t.ok(comparePeriods('2025-12', '2026-01') < 0);
  t.equal(comparePeriods('2026-01', '2026-01'), 0);
});

t.test('the clock answers across a month end even when asked within the same minute before', async (t) => {
  const clock = periodClock('UTC');
  t.equal(clock(Date.UTC(2026, 10, 30, 23, 59, 59, 999)), '2026-11');
  t.equal(clock(Date.UTC(2026, 11, 1, 0, 0, 0, 0)), '2026-12');
  t.equal(clock(Date.UTC(2026, 10, 30, 23, 59, 30)), '2026-11', 'going back in time works too');
});
