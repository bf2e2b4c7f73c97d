import t from 'tap';
import { DEFAULT_HOURS, SessionClock, parseHolidays, parseHours } from '../../src/core/trading-hours.ts';

const ny = (local: string): number => {
  // New York is UTC-5 in winter (EST) and UTC-4 in summer (EDT); the tests pick their dates.
  const offset = local.startsWith('2026-07') ? '-04:00' : '-05:00';
  return Date.parse(`${local}${offset}`);
};

t.test('the default session: 09:30 to 16:00 New York time, weekdays', async (t) => {
  const clock = new SessionClock(parseHours(DEFAULT_HOURS));
  // Monday 2026-11-23.
  t.same(clock.at(ny('2026-11-23T09:29:59')), { day: '2026-11-23', open: false });
  t.same(clock.at(ny('2026-11-23T09:30:00')), { day: '2026-11-23', open: true });
  t.same(clock.at(ny('2026-11-23T15:59:59')), { day: '2026-11-23', open: true });
  t.same(clock.at(ny('2026-11-23T16:00:00')), { day: '2026-11-23', open: false });
  // Saturday and Sunday closed; summer time follows the zone (10:00 EDT is 14:00 UTC).
  t.equal(clock.at(ny('2026-11-28T12:00:00')).open, false);
  t.equal(clock.at(ny('2026-11-29T12:00:00')).open, false);
  t.equal(clock.at(Date.parse('2026-07-15T14:00:00Z')).open, true);
  t.equal(clock.at(Date.parse('2026-07-15T13:29:00Z')).open, false);
  // The trading day is the local date: 02:00 UTC on the 24th is still the 23rd in New York.
  t.equal(clock.at(Date.parse('2026-11-24T02:00:00Z')).day, '2026-11-23');
});

t.test('holidays close the whole local day', async (t) => {
  const clock = new SessionClock(parseHours(DEFAULT_HOURS), parseHolidays('2026-11-26, 2026-12-25'));
  t.equal(clock.at(ny('2026-11-26T11:00:00')).open, false);
  t.equal(clock.at(ny('2026-11-27T11:00:00')).open, true);
});

t.test('always open, in a zone of choice for the trading day', async (t) => {
  const clock = new SessionClock(parseHours('always'));
  t.same(clock.at(ny('2026-11-28T03:00:00')), { day: '2026-11-28', open: true });
  t.equal(parseHours('always UTC').timeZone, 'UTC');
  t.equal(
    new SessionClock(parseHours('ALWAYS Asia/Tokyo')).at(Date.parse('2026-11-23T20:00:00Z')).day,
    '2026-11-24',
  );
});

t.test('day lists and ranges, wrapping past Sunday', async (t) => {
  t.same(parseHours('10:00-11:00 UTC fri-mon'), {
    kind: 'session',
    timeZone: 'UTC',
    open: 600,
    close: 660,
    days: [0, 1, 5, 6],
  });
  t.same((parseHours('00:00-24:00 UTC mon,wed') as { days: readonly number[] }).days, [1, 3]);
  const allDay = new SessionClock(parseHours('00:00-24:00 UTC mon'));
  t.equal(allDay.at(Date.parse('2026-11-23T23:59:00Z')).open, true);
});

t.test('bad values say what is wrong', async (t) => {
  t.throws(() => parseHours('9:30-16:00 UTC mon-fri'), /HH:MM/);
  t.throws(() => parseHours('16:00-09:30 UTC mon-fri'), /open before it closes/);
  t.throws(() => parseHours('09:30-16:00 Mars/Olympus mon-fri'), /unknown time zone/);
  t.throws(() => parseHours('09:30-16:00 UTC mon-fry'), /not a day/);
  t.throws(() => parseHours('09:30-16:00 UTC'), /expected/);
  t.throws(() => parseHours('always UTC extra'), /at most a time zone/);
  t.throws(() => parseHolidays('2026-13-45'), /not a date/);
  t.same(parseHolidays(''), []);
});

t.test('the answer is reused within a minute and recomputed across one', async (t) => {
  const clock = new SessionClock(parseHours(DEFAULT_HOURS));
  const a = clock.at(ny('2026-11-23T10:00:05'));
  t.equal(clock.at(ny('2026-11-23T10:00:59')), a);
  t.not(clock.at(ny('2026-11-23T10:01:00')), a);
});
