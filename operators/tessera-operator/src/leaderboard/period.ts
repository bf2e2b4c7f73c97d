/**
 * Period ids as the leaderboard names them, in the board's time zone: `YYYY-MM` (monthly),
 * `YYYY-Www` (weekly, ISO 8601 weeks starting on Monday) and `YYYY-MM-DD` (daily), and the
 * instant the current one ends. Pure: the instant comes in as data.
 */
import type { Period } from './types.ts';

const MINUTE = 60_000;
/** Longer than any period (a month of 31 days with a daylight-saving hour). */
const LONGEST = 32 * 24 * 60 * MINUTE;

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (f === undefined) {
    // Throws RangeError for a zone Intl does not know (checked before any period is asked for).
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    format(timeZone);
    return true;
  } catch {
    return false;
  }
}

function localDate(timeZone: string, epochMs: number): { year: number; month: number; day: number } {
  const parts = { year: 0, month: 0, day: 0 };
  for (const part of format(timeZone).formatToParts(epochMs)) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day')
      parts[part.type] = Number(part.value);
  }
  return parts;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO week: the week belongs to the year of its Thursday. */
function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  date.setUTCDate(date.getUTCDate() - weekday + 3); // the Thursday of this week
  const weekYear = date.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(weekYear, 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  return {
    year: weekYear,
    week: 1 + Math.round((date.getTime() - firstThursday.getTime()) / (7 * 86_400_000)),
  };
}

export function periodId(period: Period, timeZone: string, epochMs: number): string {
  const { year, month, day } = localDate(timeZone, epochMs);
  switch (period) {
    case 'monthly':
      return `${pad(year, 4)}-${pad(month)}`;
    case 'daily':
      return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
    case 'weekly': {
      const week = isoWeek(year, month, day);
      return `${pad(week.year, 4)}-W${pad(week.week)}`;
    }
  }
}

/**
 * The first instant after `epochMs` that belongs to another period. Every zone's offset is a whole
 * number of minutes, so periods start on a minute: a binary search over minutes finds it, whatever
 * daylight saving does to the length of the day.
 */
export function periodEnd(period: Period, timeZone: string, epochMs: number): number {
  const current = periodId(period, timeZone, epochMs);
  let low = Math.floor(epochMs / MINUTE); // in the current period
  let high = Math.floor((epochMs + LONGEST) / MINUTE); // past it
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (periodId(period, timeZone, middle * MINUTE) === current) low = middle;
    else high = middle;
  }
  return high * MINUTE;
}

/** The first instant of the period `epochMs` is in (the same search, backwards). */
export function periodStart(period: Period, timeZone: string, epochMs: number): number {
  const current = periodId(period, timeZone, epochMs);
  let low = Math.floor((epochMs - LONGEST) / MINUTE); // before it
  let high = Math.floor(epochMs / MINUTE); // in it
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (periodId(period, timeZone, middle * MINUTE) === current) high = middle;
    else low = middle;
  }
  return high * MINUTE;
}

/**
 * The periods finished since `recorded` (included) and before the one `epochMs` is in, oldest
 * first: one after a boundary, several when nobody looked across a few (an operator down over a
 * weekend of daily boards). At most `limit`, the newest ones.
 */
export function finishedPeriods(
  period: Period,
  timeZone: string,
  recorded: string,
  epochMs: number,
  limit = 1000,
): string[] {
  const found: string[] = [];
  let instant = periodStart(period, timeZone, epochMs) - 1;
  while (found.length < limit) {
    const id = periodId(period, timeZone, instant);
    if (comparePeriodIds(id, recorded) < 0) break;
    found.push(id);
    if (id === recorded) break;
    instant = periodStart(period, timeZone, instant) - 1;
  }
  return found.reverse();
}

/** Orders period ids of one kind: the fixed-width forms sort as text. */
export function comparePeriodIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
