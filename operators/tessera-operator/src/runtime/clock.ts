/**
 * The operator's notion of now. Period boundaries are decided by it alone, so a test moves it
 * (a month's end in seconds) while timers and leases keep real time.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test sets and moves. */
export class MovableClock implements Clock {
  #now: number;
  constructor(start: number) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  set(epochMs: number): void {
    this.#now = epochMs;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
