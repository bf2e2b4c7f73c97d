/** UTCTimestamp with milliseconds, as FIX 4.4 writes SendingTime and TransactTime. */
export function utcTimestamp(now: number): string {
  const iso = new Date(now).toISOString(); // 2026-11-23T20:01:28.123Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 23)}`;
}

/**
 * utcTimestamp with the last two stamps kept: a busy session stamps many frames (and their
 * events' times) within one millisecond. One per owner (a session, the order gateway), not shared.
 */
export class UtcTimestamps {
  readonly #ms = [NaN, NaN];
  readonly #text = ['', ''];
  #next = 0;

  format(now: number): string {
    if (now === this.#ms[0]) return this.#text[0]!;
    if (now === this.#ms[1]) return this.#text[1]!;
    const text = utcTimestamp(now);
    this.#ms[this.#next] = now;
    this.#text[this.#next] = text;
    this.#next ^= 1;
    return text;
  }
}
