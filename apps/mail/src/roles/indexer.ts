/**
 * indexer: keeps the search index up to date, off the path of delivery. Two sources:
 * - the backlog of filed copies (`MetadataStore.unindexed`, written with each copy): a batch of
 *   them (those still there, as the worker handed them over or read from the store) is added in
 *   one index write, then taken off the backlog; run every MAIL_INDEX_EVERY_MS (`runPaced`), so
 *   FTS5 writes one larger segment per batch;
 * - change events (a message read, moved, deleted, sent): each names a message; the indexer reads
 *   its current state and upserts or removes it, so duplicates and reordering are harmless. A
 *   claimed batch is applied concurrently: its index writes share one group commit, its acks
 *   another.
 * The two never run at once: a copy read from the backlog and deleted before its index write is
 * removed by the delete's change event, handled after that write.
 */
import { TOPIC, type ChangeEvent, type SearchDocument } from '../core/events.ts';
import { searchDocumentOf } from '../core/search-document.ts';
import { finishJob, outcomeOf } from './handle-job.ts';
import type { MetadataStore, Queue, SearchIndex, UnindexedCopy } from '../ports.ts';
import type { FiledDocs } from './filed-docs.ts';

export interface IndexerOptions {
  readonly queue: Queue;
  readonly metadata: MetadataStore;
  readonly search: SearchIndex;
  /** Documents the worker of this thread just filed (see filed-docs.ts). */
  readonly filed?: FiledDocs;
  readonly batchSize?: number;
  /** Filed copies added to the index in one write, at most. */
  readonly backlogBatch?: number;
  readonly leaseMs?: number;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export interface Indexer {
  /** The backlog's next batch, then the change events ready; resolves to how many were handled. */
  drain(): Promise<number>;
  /** The next batch of filed copies, in one index write. */
  drainBacklog(): Promise<number>;
  drainChanges(): Promise<number>;
  /** drainBacklog's batch: a full one means more may be waiting. */
  readonly backlogBatch: number;
}

export const DEFAULT_BACKLOG_BATCH = 512;

export function createIndexer(options: IndexerOptions): Indexer {
  const { queue, metadata, search } = options;
  const claim = { limit: options.batchSize ?? 256, leaseMs: options.leaseMs ?? 60_000 };
  const backlogBatch = options.backlogBatch ?? DEFAULT_BACKLOG_BATCH;
  const policy = { now: options.now ?? Date.now, retryMs: 1000, maxAttempts: 8, onError: options.onError };

  // One drain at a time (see the module's comment).
  let running: Promise<unknown> = Promise.resolve();
  const exclusive = (work: () => Promise<number>): Promise<number> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };

  const apply = async ({ user_id, email_id }: ChangeEvent): Promise<void> => {
    const message = await metadata.message(user_id, email_id);
    if (message === undefined) await search.remove(user_id, email_id);
    else await search.upsert(searchDocumentOf(message));
  };

  /** A present copy's document: handed over by the worker, else read from the store. */
  const documentOf = async (copy: UnindexedCopy): Promise<SearchDocument | undefined> => {
    const handed = options.filed?.take(copy.user_id, copy.email_id);
    if (!copy.present || handed !== undefined) return copy.present ? handed : undefined;
    const message = await metadata.message(copy.user_id, copy.email_id);
    return message === undefined ? undefined : searchDocumentOf(message);
  };

  const backlog = async (): Promise<number> => {
    const copies = await metadata.unindexed(backlogBatch);
    if (copies.length === 0) return 0;
    const docs = (await Promise.all(copies.map(documentOf))).filter((d) => d !== undefined);
    // As filed: addNew leaves a document a change event upserted since, and a change still to
    // come is applied after this write (the drains never overlap).
    await search.addNew(docs);
    await metadata.markIndexed(copies.map((copy) => copy.entry));
    return copies.length;
  };

  const changes = async (): Promise<number> => {
    const jobs = await queue.claim<ChangeEvent>(TOPIC.changes, claim);
    await Promise.all(
      jobs.map(async (job) => {
        const outcome = await outcomeOf(apply(job.payload));
        await finishJob(queue, TOPIC.changes, job, outcome, policy);
      }),
    );
    return jobs.length;
  };

  return {
    backlogBatch,
    drainBacklog: () => exclusive(backlog),
    drainChanges: () => exclusive(changes),
    drain: () => exclusive(async () => (await backlog()) + (await changes())),
  };
}
