/**
 * Periods: a leaderboard covers one calendar month (the spec's tournament), ISO week or day, in
 * the configured time zone, named `YYYY-MM`, `YYYY-Www` (ISO 8601 week) or `YYYY-MM-DD`. Within
 * one kind the fixed-width names sort as text in time order.
 */
export type Period = string;

export type PeriodKind = 'monthly' | 'weekly' | 'daily';

export const PERIOD_KINDS: readonly PeriodKind[] = ['monthly', 'weekly', 'daily'];

/** The name of each kind of period, as a pattern (also used by the HTTP schemas). */
export const PERIOD_PATTERNS: Readonly<Record<PeriodKind, string>> = {
  monthly: '^[0-9]{4}-(0[1-9]|1[0-2])$',
  weekly: '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$',
  daily: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
};

const MATCHERS = Object.fromEntries(
  PERIOD_KINDS.map((kind) => [kind, new RegExp(PERIOD_PATTERNS[kind])]),
) as Record<PeriodKind, RegExp>;

/** Whether `value` names a period of `kind` (default: a month). */
export function isPeriod(value: string, kind: PeriodKind = 'monthly'): boolean {
  return MATCHERS[kind].test(value);
}

const MINUTE = 60_000;

/** Returns a function giving the period of an instant (epoch milliseconds) in `timeZone`. */
export function periodClock(timeZone: string, kind: PeriodKind = 'monthly'): (epochMs: number) => Period {
  // Throws RangeError for an unknown zone, which configuration turns into a clear message.
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  // Every zone's offset is a whole number of minutes, so a period always starts on a minute: the
  // answer for one minute holds for all of it, and formatting once a minute is enough.
  let cachedMinute = Number.NaN;
  let cachedPeriod: Period = '';
  return (epochMs) => {
    const minute = Math.floor(epochMs / MINUTE);
    if (minute !== cachedMinute) {
      cachedPeriod = periodName(localDate(format, epochMs), kind);
      cachedMinute = minute;
    }
    return cachedPeriod;
  };
}

interface LocalDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

function localDate(format: Intl.DateTimeFormat, epochMs: number): LocalDate {
  const parts = { year: 0, month: 0, day: 0 };
  for (const part of format.formatToParts(epochMs)) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day')
      parts[part.type] = Number(part.value);
  }
  return parts;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function periodName(date: LocalDate, kind: PeriodKind): Period {
  switch (kind) {
    case 'monthly':
      return `${pad(date.year, 4)}-${pad(date.month)}`;
    case 'daily':
      return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
    case 'weekly': {
      const { year, week } = isoWeek(date);
      return `${pad(year, 4)}-W${pad(week)}`;
    }
  }
}

const DAY = 86_400_000;

/**
 * ISO 8601 week: weeks start on Monday, and week 1 is the one holding the year's first Thursday,
 * so the days around New Year may belong to the other year's week (2026-12-31 is 2026-W53,
 * 2027-01-01 too; 2029-12-31 is 2030-W01).
 */
export function isoWeek(date: LocalDate): { year: number; week: number } {
  const day = Date.UTC(date.year, date.month - 1, date.day);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const thursday = day + (3 - weekday) * DAY;
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY));
  return { year, week };
}

/** Orders periods of one kind: negative when `a` is earlier than `b`. */
export function comparePeriods(a: Period, b: Period): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
