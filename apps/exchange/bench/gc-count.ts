/**
 * Counts the garbage collections that a piece of synchronous work causes. Node reports a GC to
 * performance observers some event-loop turns after it happened, so a counter read right after
 * the work has not heard of it yet: instead every GC's start time is kept, and once the reports
 * are in, the ones that started while the work ran are counted.
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** How long to wait for Node's reports of the GCs during the work. */
const REPORT_DELAY_MS = 20;

export class GcCounter {
  readonly #starts: number[] = [];
  readonly #observer: PerformanceObserver;

  constructor() {
    this.#observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.#starts.push(entry.startTime);
    });
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  /** Runs `work`: its result, and the number of GCs that started while it ran. */
  async count<T>(work: () => T): Promise<{ result: T; gc: number }> {
    const from = performance.now();
    const result = work();
    const to = performance.now();
    await new Promise((resolve) => setTimeout(resolve, REPORT_DELAY_MS));
    return { result, gc: this.#starts.filter((start) => start >= from && start <= to).length };
  }

  disconnect(): void {
    this.#observer.disconnect();
  }
}
