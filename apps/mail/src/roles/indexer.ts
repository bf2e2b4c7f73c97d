/**
 * indexer: applies change events to the search index. An event only names a message; the
 * indexer reads its current state (absent: removed), so duplicates and reordering are harmless.
 * A claimed batch is applied concurrently: its index writes share one group commit, its acks
 * another.
 */
import { TOPIC, type ChangeEvent } from '../core/events.ts';
import { searchDocumentOf } from '../core/search-document.ts';
import { finishJob, outcomeOf } from './handle-job.ts';
import type { MetadataStore, Queue, SearchIndex } from '../ports.ts';

export interface IndexerOptions {
  readonly queue: Queue;
  readonly metadata: MetadataStore;
  readonly search: SearchIndex;
  readonly batchSize?: number;
  readonly leaseMs?: number;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export function createIndexer(options: IndexerOptions): { drain(): Promise<number> } {
  const claim = { limit: options.batchSize ?? 256, leaseMs: options.leaseMs ?? 60_000 };
  const policy = { now: options.now ?? Date.now, retryMs: 1000, maxAttempts: 8, onError: options.onError };
  const apply = async ({ user_id, email_id }: ChangeEvent): Promise<void> => {
    const message = await options.metadata.message(user_id, email_id);
    if (message === undefined) await options.search.remove(user_id, email_id);
    else await options.search.upsert(searchDocumentOf(message));
  };
  return {
    async drain() {
      const jobs = await options.queue.claim<ChangeEvent>(TOPIC.changes, claim);
      await Promise.all(
        jobs.map(async (job) => {
          const outcome = await outcomeOf(apply(job.payload));
          await finishJob(options.queue, TOPIC.changes, job, outcome, policy);
        }),
      );
      return jobs.length;
    },
  };
}
