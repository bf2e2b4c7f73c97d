/**
 * Counts the garbage collections that a piece of synchronous work causes. Node reports a GC to
 * performance observers some event-loop turns after it happened, so a counter read right after
 * the work has not heard of it yet: instead every GC's start time is kept, and once the reports
 * are in, the ones that started while the work ran are counted. "The reports are in" is known,
 * not guessed: after the work one more GC is forced (a marker), and reports arrive in the order
 * the GCs ran, so once the marker's report is here every earlier one is too.
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** How long to wait for the marker's report before giving up (an error, not a wrong count). */
const REPORT_DEADLINE_MS = 30_000;

export class GcCounter {
  readonly #starts: number[] = [];
  readonly #observer: PerformanceObserver;
  readonly #collect: () => void;
  /** Called with each report's start time, while a count waits for its marker. */
  #onReport: ((start: number) => void) | undefined;

  /** Needs `--expose-gc` (the marker is a forced GC). */
  constructor() {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (collect === undefined) throw new Error('GcCounter needs node --expose-gc (npm run bench passes it)');
    this.#collect = collect;
    this.#observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        this.#starts.push(entry.startTime);
        this.#onReport?.(entry.startTime);
      }
    });
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  /** A full collection now (a run's setup garbage gone before the run is counted). */
  collect(): void {
    this.#collect();
  }

  /** Runs `work`: its result, and the number of GCs that started while it ran. */
  async count<T>(work: () => T): Promise<{ result: T; gc: number }> {
    const from = performance.now();
    const result = work();
    const to = performance.now();
    await this.#marker(to);
    return { result, gc: this.#starts.filter((start) => start >= from && start <= to).length };
  }

  /** Forces a GC after `after` and resolves once its report (and so every earlier one) is in. */
  #marker(after: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(() => {
        this.#onReport = undefined;
        reject(new Error(`no GC report within ${REPORT_DEADLINE_MS} ms of the marker GC`));
      }, REPORT_DEADLINE_MS);
      this.#onReport = (start) => {
        if (start <= after) return;
        clearTimeout(deadline);
        this.#onReport = undefined;
        resolve();
      };
      this.#collect();
    });
  }

  disconnect(): void {
    this.#observer.disconnect();
  }
}
