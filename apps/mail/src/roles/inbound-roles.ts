/**
 * The roles that take inbound mail from the queue to the mailbox and the index — the worker
 * (with the error queue's bounces) and the indexer — built the same way wherever they run: in
 * the main thread (`startMail`) or on the consumer thread (consumer-thread-entry.ts).
 */
import type { ContentChecks } from '../adapters/select-checks.ts';
import type { MailConfig } from '../config.ts';
import type { ParsedMessage } from '../mime/parse.ts';
import type { BlobStore, MetadataStore, Push, Queue, SearchIndex } from '../ports.ts';
import { TOPIC } from '../core/events.ts';
import { runConsumer, runPaced, type Drainable, type RunningConsumer } from './consumer.ts';
import { FiledDocs } from './filed-docs.ts';
import { createIndexer, type Indexer } from './indexer.ts';
import { createWorker } from './worker.ts';

export interface InboundRolesOptions {
  readonly config: MailConfig;
  readonly ports: {
    readonly queue: Queue;
    readonly metadata: MetadataStore;
    readonly blobs: BlobStore;
    readonly search: SearchIndex;
    readonly push: Push;
  };
  readonly checks: ContentChecks;
  /** Default: `parseMessage` on this thread. */
  readonly parse?: (raw: Buffer) => Promise<ParsedMessage>;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export interface InboundRoles {
  readonly worker: Drainable;
  readonly indexer: Indexer;
}

export function createInboundRoles(options: InboundRolesOptions): InboundRoles {
  const { config, ports } = options;
  const filed = new FiledDocs();
  const worker = createWorker({
    ...ports,
    filed,
    ...(options.parse === undefined ? {} : { parse: options.parse }),
    domains: config.domains,
    spamThreshold: config.MAIL_SPAM_THRESHOLD,
    leaseMs: config.MAIL_JOB_LEASE_MS,
    ...options.checks,
    now: options.now,
    onError: options.onError,
  });
  const indexer = createIndexer({
    ...ports,
    filed,
    leaseMs: config.MAIL_JOB_LEASE_MS,
    now: options.now,
    onError: options.onError,
  });
  return { worker, indexer };
}

/**
 * Three drains of the worker (each claims from the inbound and the error queues; they differ in
 * the topic that wakes them), so that one batch is parsed while the one before is filed (the
 * worker files them in claim order), and the indexer: change events as they come, the backlog of
 * filed copies once every `indexEveryMs` (one index write for what was filed meanwhile).
 */
export function runInboundConsumers(
  queue: Queue,
  roles: InboundRoles,
  loop: {
    readonly pollMs: number;
    readonly indexEveryMs: number;
    readonly onError?: (error: unknown) => void;
  },
): RunningConsumer[] {
  const { indexer } = roles;
  return [
    runConsumer(queue, TOPIC.inbound, roles.worker, loop),
    runConsumer(queue, TOPIC.inbound, roles.worker, loop),
    runConsumer(queue, TOPIC.errors, roles.worker, loop),
    runConsumer(queue, TOPIC.changes, { drain: () => indexer.drainChanges() }, loop),
    runPaced(() => indexer.drainBacklog(), {
      intervalMs: loop.indexEveryMs,
      batch: indexer.backlogBatch,
      onError: loop.onError,
    }),
  ];
}
