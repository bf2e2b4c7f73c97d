import fc from 'fast-check';
import t from 'tap';
import {
  finishedPeriods,
  isTimeZone,
  periodEnd,
  periodId,
  periodStart,
} from '../../src/leaderboard/period.ts';

const at = (iso: string) => Date.parse(iso);

t.test("period ids in the board's time zone", async (t) => {
  t.equal(periodId('monthly', 'UTC', at('2026-01-31T23:59:59Z')), '2026-01');
  t.equal(
    periodId('monthly', 'Europe/Paris', at('2026-01-31T23:30:00Z')),
    '2026-02',
    'already February in Paris',
  );
  t.equal(periodId('daily', 'America/New_York', at('2026-03-01T03:00:00Z')), '2026-02-28');
  t.equal(periodId('weekly', 'UTC', at('2026-01-01T12:00:00Z')), '2026-W01', 'a Thursday: week 1');
  t.equal(
    periodId('weekly', 'UTC', at('2027-01-01T12:00:00Z')),
    '2026-W53',
    'a Friday of the last ISO week of 2026',
  );
  t.equal(periodId('weekly', 'UTC', at('2024-12-30T00:00:00Z')), '2025-W01', 'a Monday in ISO year 2025');
});

t.test('the end of a period is the first instant of the next one', async (t) => {
  t.equal(periodEnd('monthly', 'UTC', at('2026-01-15T10:00:00Z')), at('2026-02-01T00:00:00Z'));
  t.equal(periodEnd('monthly', 'Europe/Paris', at('2026-01-15T10:00:00Z')), at('2026-01-31T23:00:00Z'));
  t.equal(
    periodEnd('weekly', 'UTC', at('2026-01-01T00:00:00Z')),
    at('2026-01-05T00:00:00Z'),
    'the next Monday',
  );
  // The day daylight saving starts in Paris has 23 hours.
  t.equal(periodEnd('daily', 'Europe/Paris', at('2026-03-29T12:00:00Z')), at('2026-03-29T22:00:00Z'));
});

t.test('property: just before the end is the same period, the end is another', async (t) => {
  const zones = ['UTC', 'Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
  fc.assert(
    fc.property(
      fc.constantFrom('monthly', 'weekly', 'daily' as const),
      fc.constantFrom(...zones),
      fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }),
      (period, zone, instant) => {
        const end = periodEnd(period, zone, instant);
        return (
          end > instant &&
          periodId(period, zone, end - 1) === periodId(period, zone, instant) &&
          periodId(period, zone, end) !== periodId(period, zone, instant)
        );
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});

t.test('time zones the runtime knows', async (t) => {
  t.ok(isTimeZone('America/Argentina/Buenos_Aires'));
  t.notOk(isTimeZone('Mars/Olympus_Mons'));
});

t.test('the periods finished since the recorded one, oldest first', async (t) => {
  t.same(finishedPeriods('monthly', 'UTC', '2026-01', at('2026-02-01T00:00:01Z')), ['2026-01']);
  t.same(
    finishedPeriods('daily', 'UTC', '2026-02-27', at('2026-03-02T08:00:00Z')),
    ['2026-02-27', '2026-02-28', '2026-03-01'],
    'an operator down over a few days archives each of them',
  );
  t.same(finishedPeriods('weekly', 'UTC', '2026-W52', at('2027-01-05T00:00:00Z')), ['2026-W52', '2026-W53']);
  t.same(
    finishedPeriods('monthly', 'UTC', '2026-01', at('2026-01-20T00:00:00Z')),
    [],
    'nothing in the same period',
  );
  t.same(
    finishedPeriods('daily', 'UTC', '2020-01-01', at('2026-01-01T00:00:00Z'), 3),
    ['2025-12-29', '2025-12-30', '2025-12-31'],
    'at most the newest `limit`',
  );
  t.equal(periodStart('monthly', 'Europe/Paris', at('2026-03-15T00:00:00Z')), at('2026-02-28T23:00:00Z'));
});
