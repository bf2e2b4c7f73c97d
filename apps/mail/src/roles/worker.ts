/**
 * worker: turns each accepted message into mailbox entries. Per inbound job it parses the raw
 * message, puts attachments in the blob store, scores spam, and for each local recipient
 * files a copy into Inbox or Junk (threaded) and tells the user; the indexer adds the copy to
 * search later, from the backlog the filing wrote (indexer.ts). A claimed batch is handled
 * together: its messages are parsed concurrently, its copies filed in one metadata write, its
 * acks in one queue commit.
 * It also turns the error queue into bounces (bounces.ts): each failure goes back to a local sender.
 *
 * At least once: a job redelivered after a crash stores nothing twice (the copy's key is
 * user_id + the job's email_id), and is acked only when every recipient has its copy.
 */
import { mailboxOf } from '../core/address.ts';
import { TOPIC, type ErrorJob, type InboundJob } from '../core/events.ts';
import { searchDocumentOf } from '../core/search-document.ts';
import { FOLDER } from '../core/folders.ts';
import { isSpam, scoreSpam } from '../core/spam.ts';
import { parseMessage, type ParsedMessage } from '../mime/parse.ts';
import { ParserUnavailable } from '../mime/parse-pool.ts';
import { bounceSender } from './bounces.ts';
import { finishJob, handleJob, outcomeOf } from './handle-job.ts';
import { storeAttachments } from '../store-steps.ts';
import type { BlobStore, Job, MetadataStore, NewCopy, Push, Queue } from '../ports.ts';
import type { SpamChecker } from '../adapters/spamd-checker.ts';
import type { VirusScanner } from '../adapters/clamd-scanner.ts';
import type { FiledDocs } from './filed-docs.ts';

export interface WorkerOptions {
  readonly queue: Queue;
  readonly blobs: BlobStore;
  readonly metadata: MetadataStore;
  readonly push: Push;
  /** Where the documents of new copies go for the indexer of this thread (filed-docs.ts). */
  readonly filed?: FiledDocs;
  readonly domains: readonly string[];
  readonly spamThreshold: number;
  /** SpamAssassin (SPAMD_URL): its verdict of spam files the message in Junk, whatever ours. */
  readonly spamd?: SpamChecker;
  /** ClamAV (CLAMD_URL): an infected message is delivered to no one (see handleInbound). */
  readonly virusScanner?: VirusScanner;
  /** How raw messages are parsed; default `parseMessage` on this thread (see mime/parse-pool.ts). */
  readonly parse?: (raw: Buffer) => Promise<ParsedMessage>;
  readonly now?: () => number;
  readonly batchSize?: number;
  readonly leaseMs?: number;
  /** Unexpected failures: first retry after this many ms, doubling; given up after maxAttempts. */
  readonly retryMs?: number;
  readonly maxAttempts?: number;
  readonly onError?: (error: unknown) => void;
}

export interface Worker {
  /** Handles every ready inbound and error job; resolves to how many were handled. */
  drain(): Promise<number>;
}

export function createWorker(options: WorkerOptions): Worker {
  const { queue, blobs, metadata, push } = options;
  const now = options.now ?? Date.now;
  const parse = options.parse ?? parseMessage;
  const claim = { limit: options.batchSize ?? 32, leaseMs: options.leaseMs ?? 60_000 };

  const fail = async (
    job: InboundJob,
    parsed: ParsedMessage | undefined,
    recipient: string,
    status: string,
    diagnostic: string,
  ) => {
    const error: ErrorJob = {
      v: 1,
      type: 'error',
      email_id: job.email_id,
      mail_from: job.mail_from,
      recipient,
      status,
      diagnostic,
      subject: parsed?.subject ?? '',
      ...(parsed?.messageId === undefined ? {} : { message_id: parsed.messageId }),
      queued_at: job.received_at,
    };
    await queue.enqueue(TOPIC.errors, `${job.email_id}/${recipient}`, error);
  };

  /** A recipient's copy, ready to file: its attachments are in the blob store already. */
  const copyOf = async (
    job: InboundJob,
    parsed: ParsedMessage,
    userId: string,
    folderId: string,
    spamScore: number,
  ): Promise<NewCopy> => {
    const attachments = await storeAttachments(blobs, userId, job.email_id, parsed.attachments);
    const messageId = parsed.messageId ?? `${job.email_id}@${options.domains[0] ?? 'localhost'}`;
    return {
      headers: { messageId, inReplyTo: parsed.inReplyTo, references: parsed.references },
      message: {
        user_id: userId,
        email_id: job.email_id,
        folder_id: folderId,
        message_id: messageId,
        ...(parsed.inReplyTo === undefined ? {} : { in_reply_to: parsed.inReplyTo }),
        references: parsed.references,
        from: parsed.from,
        to: parsed.to,
        cc: parsed.cc,
        bcc: [],
        subject: parsed.subject,
        body: parsed.text,
        ...(parsed.html === undefined ? {} : { html: parsed.html }),
        is_read: false,
        received_at: job.received_at,
        attachments,
        auth: job.auth,
        spam_score: spamScore,
      },
    };
  };

  /** Reads, parses and checks one message: the copies to file (failures are queued already). */
  const prepareInbound = async (job: InboundJob): Promise<NewCopy[]> => {
    const raw = await blobs.read(job.raw_key);
    let parsed: ParsedMessage | undefined;
    try {
      if (raw === undefined) throw new Error(`raw message ${job.raw_key} is missing`);
      parsed = await parse(raw);
    } catch (error) {
      // Not the message's fault: the job is tried again later.
      if (error instanceof ParserUnavailable) throw error;
      for (const userId of job.recipients) {
        await fail(
          job,
          parsed,
          mailboxOf(userId, options.domains[0] ?? ''),
          '5.6.0',
          `message could not be read: ${String(error)}`,
        );
      }
      return [];
    }
    // A virus reaches no mailbox: the message stays quarantined as its raw blob (never parsed
    // into attachments), and each recipient's failure goes to the error queue, so a local
    // sender gets a bounce naming the signature; a remote one gets none (no backscatter).
    const virus = await options.virusScanner?.scan(raw);
    if (virus?.infected === true) {
      for (const userId of job.recipients) {
        await fail(
          job,
          parsed,
          mailboxOf(userId, options.domains[0] ?? ''),
          '5.7.1',
          `550 5.7.1 message refused: virus ${virus.signature} found; quarantined`,
        );
      }
      return [];
    }
    const verdict = scoreSpam({
      subject: parsed.subject,
      text: parsed.text,
      html: parsed.html,
      fromEmail: parsed.from.email,
      fromName: parsed.from.name,
      spf: job.auth.spf,
      dkim: job.auth.dkim,
      dmarc: job.auth.dmarc,
    });
    const external = await options.spamd?.check(raw);
    const spam = isSpam(verdict.score, options.spamThreshold) || external?.spam === true;
    const folderId = spam ? FOLDER.junk : FOLDER.inbox;
    const spamScore = external?.score ?? verdict.score;
    const copies: NewCopy[] = [];
    for (const userId of job.recipients) {
      // Mail sent through the API names local users that may not exist (SMTP refused those already).
      if (!(await metadata.hasUser(userId))) {
        await fail(
          job,
          parsed,
          mailboxOf(userId, options.domains[0] ?? ''),
          '5.1.1',
          '550 5.1.1 No such user here',
        );
        continue;
      }
      copies.push(await copyOf(job, parsed, userId, folderId, spamScore));
    }
    return copies;
  };

  /**
   * Files the copies of a whole batch in one metadata write (threads resolved in order inside
   * it), then tells their users. The same write puts each copy on the indexer's backlog: the
   * search index is written later, in larger batches, and never holds back or fails a delivery.
   */
  const fileCopies = async (copies: readonly NewCopy[]): Promise<void> => {
    if (copies.length === 0) return;
    const filed = await metadata.fileCopies(copies);
    const news = copies.filter((_, i) => filed[i]?.inserted === true);
    for (const { message } of news) options.filed?.put(searchDocumentOf(message));
    const events = news.map(({ message: { user_id, email_id, folder_id } }) => ({
      userId: user_id,
      event: { type: 'message.new', email_id, folder_id } as const,
    }));
    await (push.publishAll?.(events) ??
      Promise.all(events.map(({ userId, event }) => push.publish(userId, event))));
  };

  /** Reads, parses and checks one job's message; a failure is kept as the job's outcome. */
  const prepare = async (job: Job<InboundJob>) => {
    try {
      return { job, copies: await prepareInbound(job.payload), failed: undefined };
    } catch (error) {
      return { job, copies: [], failed: { ok: false, error } as const };
    }
  };

  /**
   * A claimed batch: each message read, parsed and checked concurrently, the copies of all filed
   * together, then each job acked (or retried) once everything it needs is written.
   * - A parse thread that died failed every parse it held, whichever message killed it: those are
   *   parsed again one at a time, so only a message that fails alone counts a failed attempt.
   * - When the batch's filing fails, each job's copies are filed on their own, so one bad copy
   *   fails its own job only.
   */
  const handleInboundBatch = async (jobs: readonly Job<InboundJob>[]): Promise<void> => {
    const prepared = [];
    for (const entry of await Promise.all(jobs.map(prepare))) {
      prepared.push(entry.failed?.error instanceof ParserUnavailable ? await prepare(entry.job) : entry);
    }
    const filing = await outcomeOf(fileCopies(prepared.flatMap((p) => p.copies)));
    await Promise.all(
      prepared.map(async ({ job, copies, failed }) =>
        finishJob(
          queue,
          TOPIC.inbound,
          job,
          failed ??
            (copies.length === 0 ? { ok: true } : filing.ok ? filing : await outcomeOf(fileCopies(copies))),
          inboundPolicy,
        ),
      ),
    );
  };

  const handleError = bounceSender({ queue, blobs, metadata, domains: options.domains, now });

  const policy = {
    now,
    retryMs: options.retryMs ?? 1000,
    maxAttempts: options.maxAttempts ?? 8,
    onError: options.onError,
  };
  const inboundPolicy = {
    ...policy,
    // Given up: every recipient's copy counts as failed, and a local sender hears of it.
    onGiveUp: async (job: InboundJob, error: unknown) => {
      for (const userId of job.recipients) {
        await fail(
          job,
          undefined,
          mailboxOf(userId, options.domains[0] ?? ''),
          '4.3.0',
          `delivery failed: ${String(error)}`,
        );
      }
    },
  };

  return {
    async drain() {
      const inbound = await queue.claim<InboundJob>(TOPIC.inbound, claim);
      if (inbound.length > 0) await handleInboundBatch(inbound);
      const errors = await queue.claim<ErrorJob>(TOPIC.errors, claim);
      for (const job of errors) await handleJob(queue, TOPIC.errors, job, handleError, policy);
      return inbound.length + errors.length;
    },
  };
}
