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

/** How a job's handling ended: done, or failed with this error. */
export type JobOutcome = { readonly ok: true } | { readonly ok: false; readonly error: unknown };

/** The outcome of `work`, never a rejection. */
export function outcomeOf(work: Promise<unknown>): Promise<JobOutcome> {
  return work.then(
    (): JobOutcome => ({ ok: true }),
    (error: unknown): JobOutcome => ({ ok: false, error }),
  );
}

/** Acks a job that is done; a failed one is retried later, or given up and acked. */
export async function finishJob<T>(
  queue: Queue,
  topic: Topic,
  job: Job<T>,
  outcome: JobOutcome,
  policy: JobPolicy<T>,
): Promise<void> {
  if (!outcome.ok) {
    policy.onError?.(outcome.error);
    if (job.attempts + 1 < policy.maxAttempts) {
      await queue.retry(topic, job.id, policy.now() + policy.retryMs * 2 ** job.attempts);
      return;
    }
    await policy.onGiveUp?.(job.payload, outcome.error);
  }
  await queue.ack(topic, job.id);
}

export async function handleJob<T>(
  queue: Queue,
  topic: Topic,
  job: Job<T>,
  handle: (payload: T) => Promise<void>,
  policy: JobPolicy<T>,
): Promise<void> {
  await finishJob(queue, topic, job, await outcomeOf((async () => handle(job.payload))()), policy);
}
