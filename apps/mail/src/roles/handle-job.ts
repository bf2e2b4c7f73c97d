/**
 * Runs one claimed job: acked once its handler resolves. An unexpected failure (a store down)
 * gives the job back for a later attempt, doubling the wait; after `maxAttempts` the job is
 * handed to `onGiveUp` and acked, so one bad job can neither block its queue nor loop forever.
 */
import type { Topic } from '../core/events.ts';
import type { Job, Queue } from '../ports.ts';

export interface JobPolicy<T> {
  readonly now: () => number;
  readonly retryMs: number;
  readonly maxAttempts: number;
  readonly onGiveUp?: (payload: T, error: unknown) => Promise<void>;
  readonly onError?: (error: unknown) => void;
}

export async function handleJob<T>(
  queue: Queue,
  topic: Topic,
  job: Job<T>,
  handle: (payload: T) => Promise<void>,
  policy: JobPolicy<T>,
): Promise<void> {
  try {
    await handle(job.payload);
  } catch (error) {
    policy.onError?.(error);
    if (job.attempts + 1 < policy.maxAttempts) {
      await queue.retry(topic, job.id, policy.now() + policy.retryMs * 2 ** job.attempts);
      return;
    }
    await policy.onGiveUp?.(job.payload, error);
  }
  await queue.ack(topic, job.id);
}
