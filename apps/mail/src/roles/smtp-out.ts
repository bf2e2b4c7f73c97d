/**
 * smtp-out: delivers queued mail for remote recipients. One job per recipient, acked as soon
 * as that recipient's server answers 250, so a crash and restart never sends to a recipient
 * twice (only a crash between the 250 and the ack could, a window of one SQLite write).
 * Routing, retry and give-up follow core/delivery.ts; failures go to the error queue, which
 * the worker turns into bounces.
 */
import nodemailer from 'nodemailer';
import { addressesOf, lookupMx, type MailResolver } from '../adapters/dns-resolver.ts';
import { domainOf } from '../core/address.ts';
import { isPermanentFailure, nextAttempt, routeFor, type RetryPolicy } from '../core/delivery.ts';
import { TOPIC, type ErrorJob, type OutboundJob } from '../core/events.ts';
import type { BlobStore, Job, Queue } from '../ports.ts';

export interface DkimKey {
  readonly domainName: string;
  readonly keySelector: string;
  readonly privateKey: string;
}

export interface SmtpOutOptions {
  readonly queue: Queue;
  readonly blobs: BlobStore;
  readonly resolver: MailResolver;
  /** Port of remote MX hosts: 25, or a test sink's. */
  readonly remotePort: number;
  /** Our name in EHLO. */
  readonly heloName: string;
  readonly retry: RetryPolicy;
  readonly dkim?: DkimKey;
  readonly now?: () => number;
  readonly timeoutMs?: number;
  readonly batchSize?: number;
  readonly leaseMs?: number;
  readonly onError?: (error: unknown) => void;
}

type Outcome =
  | { readonly kind: 'delivered'; readonly host: string }
  | {
      readonly kind: 'permanent';
      readonly status: string;
      readonly diagnostic: string;
      readonly host?: string;
    }
  | { readonly kind: 'temporary'; readonly diagnostic: string; readonly host?: string };

interface SendFailure {
  responseCode?: number;
  response?: string;
  message?: string;
}

function enhancedStatus(response: string | undefined, fallback: string): string {
  return /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(response ?? '')?.[1] ?? fallback;
}

export function createSmtpOut(options: SmtpOutOptions): { drain(): Promise<number> } {
  const now = options.now ?? Date.now;
  const timeout = options.timeoutMs ?? 30_000;
  const claim = { limit: options.batchSize ?? 16, leaseMs: options.leaseMs ?? 10 * 60_000 };

  const sendTo = async (host: string, address: string, job: OutboundJob, raw: Buffer): Promise<void> => {
    const transport = nodemailer.createTransport({
      host: address,
      port: options.remotePort,
      name: options.heloName,
      secure: false,
      // Opportunistic STARTTLS: MX certificates are rarely valid for the MX name (RFC 7672 aside).
      tls: { servername: host, rejectUnauthorized: false },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      ...(options.dkim === undefined ? {} : { dkim: { ...options.dkim } }),
    });
    try {
      await transport.sendMail({ envelope: { from: job.mail_from, to: [job.recipient] }, raw });
    } finally {
      transport.close();
    }
  };

  const attempt = async (job: OutboundJob, raw: Buffer): Promise<Outcome> => {
    const domain = domainOf(job.recipient);
    const route = routeFor(domain, await lookupMx(options.resolver, domain));
    if (route.kind === 'permanent')
      return { kind: 'permanent', status: route.status, diagnostic: route.reason };
    if (route.kind === 'temporary') return { kind: 'temporary', diagnostic: route.reason };
    let last: Outcome = { kind: 'temporary', diagnostic: `no address found for the MX hosts of ${domain}` };
    for (const host of route.hosts) {
      for (const address of await addressesOf(options.resolver, host)) {
        try {
          await sendTo(host, address, job, raw);
          return { kind: 'delivered', host };
        } catch (error) {
          const failure = error as SendFailure;
          const diagnostic = failure.response ?? failure.message ?? String(error);
          // A 5xx is the recipient's server's final word; any other failure tries the next host.
          if (isPermanentFailure(failure)) {
            return { kind: 'permanent', status: enhancedStatus(failure.response, '5.0.0'), diagnostic, host };
          }
          last = { kind: 'temporary', diagnostic, host };
        }
      }
    }
    return last;
  };

  const toErrorQueue = async (job: OutboundJob, status: string, diagnostic: string, host?: string) => {
    const error: ErrorJob = {
      v: 1,
      type: 'error',
      email_id: job.email_id,
      mail_from: job.mail_from,
      recipient: job.recipient,
      status,
      diagnostic,
      ...(host === undefined ? {} : { remote_mta: host }),
      subject: job.subject,
      message_id: job.message_id,
      queued_at: job.queued_at,
    };
    await options.queue.enqueue(TOPIC.errors, `${job.email_id}/${job.recipient}`, error);
  };

  const handle = async ({ id, payload: job, attempts }: Job<OutboundJob>): Promise<void> => {
    const raw = await options.blobs.read(job.raw_key);
    const outcome: Outcome =
      raw === undefined
        ? { kind: 'permanent', status: '5.3.0', diagnostic: `the message ${job.raw_key} is missing` }
        : await attempt(job, raw);
    if (outcome.kind === 'delivered') {
      await options.queue.ack(TOPIC.outbound, id);
      return;
    }
    if (outcome.kind === 'permanent') {
      await toErrorQueue(job, outcome.status, outcome.diagnostic, outcome.host);
      await options.queue.ack(TOPIC.outbound, id);
      return;
    }
    const next = nextAttempt(attempts + 1, job.queued_at, now(), options.retry);
    if (next.kind === 'retry') {
      await options.queue.retry(TOPIC.outbound, id, next.at);
      return;
    }
    await toErrorQueue(
      job,
      '4.4.7',
      `gave up after ${attempts + 1} attempts: ${outcome.diagnostic}`,
      outcome.host,
    );
    await options.queue.ack(TOPIC.outbound, id);
  };

  return {
    async drain() {
      const jobs = await options.queue.claim<OutboundJob>(TOPIC.outbound, claim);
      for (const job of jobs) {
        // handle() settles every delivery outcome itself; this catches a store failing under it.
        try {
          await handle(job);
        } catch (error) {
          options.onError?.(error);
          await options.queue.retry(TOPIC.outbound, job.id, now() + options.retry.baseMs);
        }
      }
      return jobs.length;
    },
  };
}
