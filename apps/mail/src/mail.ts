/**
 * Wires the mail roles over a set of ports: the service facade (what the API calls), the
 * smtp-in server, and the worker, smtp-out and indexer consumers (the worker and indexer on a
 * thread of their own with `consumerThread`). Until the kit's service
 * descriptor lands, this is how the embedded platform and the tests start mail in process.
 */
import { readFileSync } from 'node:fs';
import { createMailauthVerifier, type SenderVerifier } from './adapters/mailauth-verifier.ts';
import { createRecordResolver, createResolver, type MailResolver } from './adapters/dns-resolver.ts';
import { selectContentChecks, type ContentChecks } from './adapters/select-checks.ts';
import type { MailConfig } from './config.ts';
import { TOPIC } from './core/events.ts';
import type { MailPorts } from './ports.ts';
import { runConsumer, type RunningConsumer } from './roles/consumer.ts';
import { startConsumerThread, type ConsumerThread } from './roles/consumer-thread.ts';
import type { EmbeddedLocation } from './roles/consumer-thread-protocol.ts';
import { createInboundRoles, runInboundConsumers } from './roles/inbound-roles.ts';
import { startSmtpIn, type RunningSmtpIn } from './roles/smtp-in.ts';
import { createSmtpOut, type DkimKey } from './roles/smtp-out.ts';
import { MailService } from './service.ts';
import { startParseThread } from './mime/parse-pool.ts';

export interface StartMailOptions {
  readonly config: MailConfig;
  readonly ports: MailPorts;
  /** DNS for MX lookups; default: MAIL_DNS_SERVER or the system's. */
  readonly resolver?: MailResolver;
  /** SPF/DKIM/DMARC of inbound mail; default: mailauth over the same DNS server. */
  readonly verifySender?: SenderVerifier;
  /** Default: MAIL_DKIM_KEY_FILE with MAIL_DKIM_SELECTOR for the primary domain, if set. */
  readonly dkim?: DkimKey;
  /** Default: SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE, if set. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  /** spamd and clamd; default: from SPAMD_URL and CLAMD_URL (adapters/select-checks.ts). */
  readonly checks?: ContentChecks;
  /** false: no SMTP listener (API-only tests). */
  readonly smtpIn?: boolean;
  /** false: the consumers do not run by themselves; call `settle()` (deterministic tests). */
  readonly consumers?: boolean;
  readonly pollMs?: number;
  /** false: the worker parses messages on its own thread (default: on a parse thread). */
  readonly parseThread?: boolean;
  /**
   * With consumers: run the worker and the indexer on a thread of their own over these embedded
   * stores (roles/consumer-thread.ts). That thread builds its content checks from `config` and
   * reads the system clock: `checks` and `now` apply to the main thread's roles only.
   */
  readonly consumerThread?: EmbeddedLocation;
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export interface RunningMail {
  readonly service: MailService;
  readonly ports: MailPorts;
  readonly smtpIn?: RunningSmtpIn;
  /** The worker and indexer's thread, when they run on one (`consumerThread`). */
  readonly consumerThread?: ConsumerThread;
  /**
   * Runs the roles of this thread — worker, smtp-out and indexer, or smtp-out alone beside a
   * consumer thread — until none has anything ready (bounded rounds).
   */
  settle(maxRounds?: number): Promise<number>;
  close(): Promise<void>;
}

function dkimFromConfig(config: MailConfig): DkimKey | undefined {
  if (config.MAIL_DKIM_KEY_FILE === undefined) return undefined;
  return {
    domainName: config.domains[0],
    keySelector: config.MAIL_DKIM_SELECTOR,
    privateKey: readFileSync(config.MAIL_DKIM_KEY_FILE, 'utf8'),
  };
}

function tlsFromConfig(config: MailConfig): { cert: Buffer; key: Buffer } | undefined {
  if (config.SMTP_TLS_CERT_FILE === undefined || config.SMTP_TLS_KEY_FILE === undefined) return undefined;
  return { cert: readFileSync(config.SMTP_TLS_CERT_FILE), key: readFileSync(config.SMTP_TLS_KEY_FILE) };
}

export async function startMail(options: StartMailOptions): Promise<RunningMail> {
  const { config, ports } = options;
  const resolver = options.resolver ?? createResolver(config.MAIL_DNS_SERVER);
  const dkim = options.dkim ?? dkimFromConfig(config);
  const tls = options.tls ?? tlsFromConfig(config);
  const service = new MailService({
    ports,
    domains: config.domains,
    maxMessageBytes: config.MAIL_MAX_MESSAGE_BYTES,
    attachmentLimits: {
      personal: config.MAIL_ATTACHMENT_LIMIT_BYTES,
      business: config.MAIL_BUSINESS_ATTACHMENT_LIMIT_BYTES,
    },
    now: options.now,
  });
  // Consumers on a thread of their own, or here (none when the caller drives them by settle()).
  const threadAt = options.consumers === false ? undefined : options.consumerThread;
  const parser = threadAt !== undefined || options.parseThread === false ? undefined : startParseThread();
  // Its start then delays no message; with consumers off (settle()) it starts at the first parse.
  if (options.consumers !== false) parser?.warm();
  const inbound =
    threadAt !== undefined
      ? undefined
      : createInboundRoles({
          config,
          ports,
          checks: options.checks ?? selectContentChecks(config),
          ...(parser === undefined ? {} : { parse: (raw: Buffer) => parser.parse(raw) }),
          now: options.now,
          onError: options.onError,
        });
  const smtpOut = createSmtpOut({
    queue: ports.queue,
    blobs: ports.blobs,
    resolver,
    remotePort: config.SMTP_REMOTE_PORT,
    heloName: config.domains[0],
    leaseMs: config.MAIL_OUTBOUND_LEASE_MS,
    retry: {
      baseMs: config.MAIL_RETRY_BASE_MS,
      maxMs: config.MAIL_RETRY_MAX_MS,
      giveUpAfterMs: config.MAIL_GIVE_UP_AFTER_MS,
    },
    ...(dkim === undefined ? {} : { dkim }),
    now: options.now,
    onError: options.onError,
  });
  const loop = { pollMs: options.pollMs ?? 500, onError: options.onError };
  const thread =
    threadAt === undefined
      ? undefined
      : await startConsumerThread({
          data: {
            ...threadAt,
            config,
            pollMs: loop.pollMs,
            parseThread: options.parseThread !== false,
          },
          queue: ports.queue,
          push: ports.push,
          onError: options.onError,
        });
  let smtpIn: RunningSmtpIn | undefined;
  try {
    smtpIn =
      options.smtpIn === false
        ? undefined
        : await startSmtpIn({
            ...ports,
            domains: config.domains,
            maxMessageBytes: config.MAIL_MAX_MESSAGE_BYTES,
            verifySender:
              options.verifySender ?? createMailauthVerifier(createRecordResolver(config.MAIL_DNS_SERVER)),
            host: config.SMTP_HOST,
            port: config.SMTP_PORT,
            ...(tls === undefined ? {} : { tls }),
            now: options.now,
            onError: options.onError,
          });
  } catch (error) {
    await thread?.close();
    await parser?.close();
    throw error;
  }
  const consumers: RunningConsumer[] = [];
  if (options.consumers !== false) {
    consumers.push(runConsumer(ports.queue, TOPIC.outbound, smtpOut, loop));
    if (inbound !== undefined)
      consumers.push(
        ...runInboundConsumers(ports.queue, inbound, { ...loop, indexEveryMs: config.MAIL_INDEX_EVERY_MS }),
      );
  }
  return {
    service,
    ports,
    ...(smtpIn === undefined ? {} : { smtpIn }),
    ...(thread === undefined ? {} : { consumerThread: thread }),
    async settle(maxRounds = 100) {
      let total = 0;
      for (let round = 0; round < maxRounds; round++) {
        const handled =
          ((await inbound?.worker.drain()) ?? 0) +
          (await smtpOut.drain()) +
          ((await inbound?.indexer.drain()) ?? 0);
        if (handled === 0) return total;
        total += handled;
      }
      return total;
    },
    async close() {
      await smtpIn?.close();
      await Promise.all(consumers.map((c) => c.stop()));
      await thread?.close();
      await parser?.close();
    },
  };
}
