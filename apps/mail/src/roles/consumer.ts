/**
 * The loop every queue-consuming role runs: drain what is ready, then sleep until the queue
 * signals new work or the poll interval passes (another process may have enqueued).
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

export function runConsumer(
  queue: Queue,
  topic: Topic,
  role: Drainable,
  options: { pollMs: number; onError?: (error: unknown) => void },
): RunningConsumer {
  let stopped = false;
  let wake: (() => void) | undefined;
  const unsubscribe = queue.onReady(topic, () => wake?.());
  const loop = async (): Promise<void> => {
    while (!stopped) {
      let handled = 0;
      try {
        handled = await role.drain();
      } catch (error) {
        options.onError?.(error);
      }
      if (handled > 0 || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.pollMs);
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
    async stop() {
      stopped = true;
      wake?.();
      unsubscribe();
      await running;
    },
  };
}
