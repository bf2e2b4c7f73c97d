/**
 * The operator's notion of now. Period boundaries are decided by it alone, so a test moves it
 * (a month's end in seconds) while timers and leases keep real time.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that showed `start` when made and runs at real speed from there: the operator's moved
 * clock in an end-to-end test (OPERATOR_CLOCK_START), where the test cannot reach into the pod.
 */
export function clockFrom(start: number, real: () => number = Date.now): Clock {
  const offset = start - real();
  return { now: () => real() + offset };
}

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
