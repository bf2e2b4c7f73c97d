/**
 * Months: a leaderboard covers one calendar month, named `YYYY-MM`, in the configured time zone.
 */
export type Period = string;

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isPeriod(value: string): boolean {
  return PERIOD.test(value);
}

const MINUTE = 60_000;

/** Returns a function giving the period of an instant (epoch milliseconds) in `timeZone`. */
export function periodClock(timeZone: string): (epochMs: number) => Period {
  // Throws RangeError for an unknown zone, which configuration turns into a clear message.
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' });
  // Every zone's offset is a whole number of minutes, so a month always starts on a minute: the
  // answer for one minute holds for all of it, and formatting once a minute is enough.
  let cachedMinute = Number.NaN;
  let cachedPeriod: Period = '';
  return (epochMs) => {
    const minute = Math.floor(epochMs / MINUTE);
    if (minute !== cachedMinute) {
      cachedPeriod = formatPeriod(format, epochMs);
      cachedMinute = minute;
    }
    return cachedPeriod;
  };
}

function formatPeriod(format: Intl.DateTimeFormat, epochMs: number): Period {
  let year = '';
  let month = '';
  for (const part of format.formatToParts(epochMs)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
  }
  return `${year}-${month}`;
}

/** Orders periods: negative when `a` is earlier than `b`. The fixed-width form sorts as text. */
export function comparePeriods(a: Period, b: Period): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
