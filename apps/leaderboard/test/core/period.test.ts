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

t.test('weekly periods are ISO 8601 weeks in the zone, named YYYY-Www', async (t) => {
  const weekly = (ms: number, zone = 'UTC') => periodClock(zone, 'weekly')(ms);
  t.equal(weekly(Date.UTC(2026, 10, 23, 12)), '2026-W48', 'Monday 23 November 2026');
  t.equal(weekly(Date.UTC(2026, 10, 29, 23, 59)), '2026-W48', 'Sunday is the last day of the week');
  t.equal(weekly(Date.UTC(2026, 10, 30, 0, 0)), '2026-W49', 'the next Monday starts a new week');
  t.equal(weekly(Date.UTC(2026, 11, 31)), '2026-W53', '2026 has 53 weeks');
  t.equal(weekly(Date.UTC(2027, 0, 3)), '2026-W53', 'the first days of 2027 belong to 2026-W53');
  t.equal(weekly(Date.UTC(2027, 0, 4)), '2027-W01');
  t.equal(weekly(Date.UTC(2029, 11, 31)), '2030-W01', 'the last day of 2029 belongs to 2030-W01');
  t.equal(weekly(Date.UTC(2026, 10, 29, 20), 'Asia/Tokyo'), '2026-W49', 'Monday already in Tokyo');
  t.ok(isPeriod('2026-W53', 'weekly'));
  t.notOk(isPeriod('2026-W54', 'weekly'));
  t.notOk(isPeriod('2026-11', 'weekly'));
});

t.test('daily periods are calendar days in the zone, named YYYY-MM-DD', async (t) => {
  const daily = (ms: number, zone = 'UTC') => periodClock(zone, 'daily')(ms);
  t.equal(daily(Date.UTC(2026, 10, 23, 23, 59)), '2026-11-23');
  t.equal(daily(Date.UTC(2026, 10, 23, 23, 59), 'Asia/Tokyo'), '2026-11-24');
  t.equal(daily(Date.UTC(2026, 10, 24, 4), 'America/New_York'), '2026-11-23');
  t.ok(isPeriod('2026-02-28', 'daily'));
  t.notOk(isPeriod('2026-02-32', 'daily'));
  t.ok(comparePeriods('2026-11-09', '2026-11-10') < 0, 'fixed width sorts as text');
});
