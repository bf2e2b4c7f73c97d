/**
 * The trading session as a pure rule: given a time (milliseconds since the epoch, passed in as
 * data) is the market open, and which trading day does it belong to (the day the daily risk
 * counters reset on)? Both are read in the session's time zone.
 *
 * `EXCHANGE_HOURS` syntax: `HH:MM-HH:MM <IANA zone> <days>` where days is a range or list of
 * mon…sun (`09:30-16:00 America/New_York mon-fri`), or `always [<IANA zone>]` for a session that
 * never closes (the zone still names the trading day). Holidays are local dates (YYYY-MM-DD).
 */
export type TradingHours =
  | { readonly kind: 'always'; readonly timeZone: string }
  | {
      readonly kind: 'session';
      readonly timeZone: string;
      /** Minutes after local midnight: open inclusive, close exclusive. */
      readonly open: number;
      readonly close: number;
      /** Local weekdays, 0 = Sunday. */
      readonly days: readonly number[];
    };

export const DEFAULT_HOURS = '09:30-16:00 America/New_York mon-fri';
export const DEFAULT_TIME_ZONE = 'America/New_York';

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

function checkZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new RangeError(`unknown time zone "${timeZone}"`);
  }
  return timeZone;
}

function minutes(text: string): number {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  const value = m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
  if (!(value <= 24 * 60)) throw new RangeError(`"${text}" is not a time HH:MM`);
  return value;
}

function dayIndex(name: string): number {
  const index = DAY_NAMES.indexOf(name.toLowerCase() as (typeof DAY_NAMES)[number]);
  if (index < 0) throw new RangeError(`"${name}" is not a day (mon, tue, … sun)`);
  return index;
}

function parseDays(text: string): number[] {
  const days = new Set<number>();
  for (const part of text.split(',')) {
    const [from, to] = part.split('-');
    if (to === undefined) {
      days.add(dayIndex(from!));
      continue;
    }
    // A range wraps past Sunday (fri-mon) as a week does.
    for (let d = dayIndex(from!); ; d = (d + 1) % 7) {
      days.add(d);
      if (d === dayIndex(to)) break;
    }
  }
  return [...days].sort((a, b) => a - b);
}

/** Parses `EXCHANGE_HOURS`; throws RangeError naming what is wrong. */
export function parseHours(text: string): TradingHours {
  const words = text.trim().split(/\s+/);
  if (words[0]?.toLowerCase() === 'always') {
    if (words.length > 2) throw new RangeError('"always" takes at most a time zone');
    return { kind: 'always', timeZone: checkZone(words[1] ?? DEFAULT_TIME_ZONE) };
  }
  if (words.length !== 3) throw new RangeError('expected "HH:MM-HH:MM <time zone> <days>" or "always"');
  const [span, zone, days] = words as [string, string, string];
  const [open, close, extra] = span.split('-');
  if (close === undefined || extra !== undefined) throw new RangeError(`"${span}" is not HH:MM-HH:MM`);
  const session = { open: minutes(open!), close: minutes(close) };
  if (session.open >= session.close) throw new RangeError('the session must open before it closes');
  return { kind: 'session', timeZone: checkZone(zone), ...session, days: parseDays(days) };
}

/** Parses `EXCHANGE_HOLIDAYS`: comma-separated local dates. */
export function parseHolidays(text: string): string[] {
  const dates = text
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  for (const date of dates) {
    const valid = /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`));
    if (!valid) throw new RangeError(`"${date}" is not a date YYYY-MM-DD`);
  }
  return dates;
}

export interface SessionState {
  /** The local trading day, YYYY-MM-DD. */
  readonly day: string;
  readonly open: boolean;
}

/**
 * Answers `at(ms)`. The answer only changes on a minute boundary (sessions are in whole minutes
 * and zone offsets are too), so it is computed once per minute and reused: the hot path pays
 * an integer comparison, not a time-zone conversion.
 */
export class SessionClock {
  readonly hours: TradingHours;
  readonly #holidays: ReadonlySet<string>;
  readonly #format: Intl.DateTimeFormat;
  #minute = Number.NaN;
  #state: SessionState = { day: '', open: false };

  constructor(hours: TradingHours, holidays: readonly string[] = []) {
    this.hours = hours;
    this.#holidays = new Set(holidays);
    this.#format = new Intl.DateTimeFormat('en-US', {
      timeZone: hours.timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    });
  }

  at(ms: number): SessionState {
    const minute = Math.floor(ms / 60_000);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#state = this.#compute(minute * 60_000);
    }
    return this.#state;
  }

  #compute(ms: number): SessionState {
    const parts: Record<string, string> = {};
    for (const part of this.#format.formatToParts(ms)) parts[part.type] = part.value;
    const day = `${parts.year}-${parts.month}-${parts.day}`;
    const hours = this.hours;
    if (hours.kind === 'always') return { day, open: true };
    const local = Number(parts.hour) * 60 + Number(parts.minute);
    const weekday = dayIndex(parts.weekday!.slice(0, 3));
    const open =
      hours.days.includes(weekday) && !this.#holidays.has(day) && local >= hours.open && local < hours.close;
    return { day, open };
  }
}
