/**
 * The loops the consuming roles run: drain what is ready, then sleep until the queue signals new
 * work or the poll interval passes (another process may have enqueued) — or, paced, drain once an
 * interval so that what arrives meanwhile is one batch.
 */
import type { Topic } from '../core/events.ts';
import type { Queue } from '../ports.ts';

export interface Drainable {
  /** Handles what is ready now; resolves to how many jobs were handled. */
  drain(): Promise<number>;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * Runs `drain` until stopped; after a drain for which `again` is false it sleeps `sleepMs`, or
 * until woken (the returned `wake`, also called by stop).
 */
function drainLoop(
  drain: () => Promise<number>,
  options: { sleepMs: number; again: (handled: number) => boolean; onError?: (error: unknown) => void },
): { readonly wake: () => void; stop(): Promise<void> } {
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = async (): Promise<void> => {
    while (!stopped) {
      let handled = 0;
      try {
        handled = await drain();
      } catch (error) {
        options.onError?.(error);
      }
      if (options.again(handled) || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.sleepMs);
        function done(): void {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    }
  };
  const running = loop();
  return {
    wake: () => wake?.(),
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}

export function runConsumer(
  queue: Queue,
  topic: Topic,
  role: Drainable,
  options: { pollMs: number; onError?: (error: unknown) => void },
): RunningConsumer {
  const loop = drainLoop(() => role.drain(), {
    sleepMs: options.pollMs,
    again: (handled) => handled > 0,
    onError: options.onError,
  });
  const unsubscribe = queue.onReady(topic, loop.wake);
  return {
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}

/**
 * Drains `drain` every `intervalMs` instead of at each wake-up, so that what arrives meanwhile
 * is handled as one batch; at once again while a drain comes back full (`batch`: a backlog).
 */
export function runPaced(
  drain: () => Promise<number>,
  options: { intervalMs: number; batch: number; onError?: (error: unknown) => void },
): RunningConsumer {
  return drainLoop(drain, {
    sleepMs: options.intervalMs,
    again: (handled) => handled >= options.batch,
    onError: options.onError,
  });
}
