/**
 * A work queue as controllers use one: keys (namespace/name) rather than objects, so many events
 * for one object collapse into one reconcile of its latest state; one key is never processed by
 * two workers at once (a key added while it runs is run again afterwards); a failure is retried
 * after an exponential back-off, a success may ask to run again later.
 */
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';

/** What one reconcile asks of the queue. */
export interface ProcessResult {
  /** Run this key again after that many milliseconds (e.g. at the next period boundary). */
  readonly requeueAfterMs?: number;
}

export type Processor = (key: string) => Promise<ProcessResult>;

export interface WorkQueueOptions {
  readonly workers?: number;
  readonly backoff?: BackoffPolicy;
  /** Called after each run, for metrics and logs. */
  readonly onResult?: (
    key: string,
    outcome: { error?: unknown; durationMs: number; retryInMs?: number },
  ) => void;
}

export class WorkQueue {
  readonly #process: Processor;
  readonly #workers: number;
  readonly #backoff: BackoffPolicy;
  readonly #onResult: WorkQueueOptions['onResult'];
  /** Keys waiting to run, in order, each once. */
  readonly #ready = new Set<string>();
  readonly #running = new Set<string>();
  /** Keys added while they ran: they go back to #ready when the run ends. */
  readonly #dirty = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #idle = new Set<() => void>();
  #active = 0;
  #stopped = false;

  constructor(process: Processor, options: WorkQueueOptions = {}) {
    this.#process = process;
    this.#workers = options.workers ?? 2;
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.#onResult = options.onResult;
  }

  /** Queues a key now, or after `delayMs` (an earlier pending run wins over a later one). */
  add(key: string, delayMs = 0): void {
    if (this.#stopped) return;
    if (delayMs > 0) {
      if (this.#timers.has(key)) return;
      const timer = setTimeout(() => {
        this.#timers.delete(key);
        this.add(key);
      }, delayMs);
      timer.unref();
      this.#timers.set(key, timer);
      return;
    }
    if (this.#running.has(key)) {
      this.#dirty.add(key);
      return;
    }
    this.#ready.add(key);
    this.#pump();
  }

  /** Keys waiting or running (a gauge for /metrics). */
  get depth(): number {
    return this.#ready.size + this.#running.size;
  }

  /** Stops taking work, cancels timers and waits for the runs underway. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#ready.clear();
    this.#dirty.clear();
    if (this.#active > 0) await new Promise<void>((resolve) => this.#idle.add(resolve));
  }

  #pump(): void {
    while (!this.#stopped && this.#active < this.#workers && this.#ready.size > 0) {
      const key = this.#ready.values().next().value as string;
      this.#ready.delete(key);
      this.#running.add(key);
      this.#active += 1;
      void this.#run(key);
    }
  }

  async #run(key: string): Promise<void> {
    const started = performance.now();
    let retryInMs: number | undefined;
    let error: unknown;
    try {
      const result = await this.#process(key);
      this.#failures.delete(key);
      retryInMs = result.requeueAfterMs;
    } catch (caught) {
      error = caught;
      const failures = (this.#failures.get(key) ?? 0) + 1;
      this.#failures.set(key, failures);
      retryInMs = backoffDelay(failures, this.#backoff);
    }
    this.#onResult?.(key, { error, durationMs: performance.now() - started, retryInMs });
    this.#running.delete(key);
    this.#active -= 1;
    if (this.#dirty.delete(key)) this.add(key);
    else if (retryInMs !== undefined) this.add(key, Math.max(1, retryInMs));
    if (this.#active === 0 && this.#stopped) {
      for (const resolve of this.#idle) resolve();
      this.#idle.clear();
    }
    this.#pump();
  }
}
