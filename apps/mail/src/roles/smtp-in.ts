/**
 * smtp-in: the inbound SMTP server (smtp-server). It accepts mail for existing local
 * mailboxes only, checks the sender's SPF/DKIM/DMARC, stores the raw message in the blob
 * store and queues one inbound job, and only then answers 250: what it acknowledges is durable.
 */
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { REPLY, classifyRecipient, type SmtpReply } from '../core/acceptance.ts';
import { newEmailId } from '../core/email-id.ts';
import { TOPIC, type InboundJob } from '../core/events.ts';
import { rawKey } from '../blob-keys.ts';
import type { SenderVerifier } from '../adapters/mailauth-verifier.ts';
import type { BlobStore, MetadataStore, Queue } from '../ports.ts';

export interface SmtpInOptions {
  readonly queue: Queue;
  readonly blobs: BlobStore;
  readonly metadata: MetadataStore;
  readonly domains: readonly string[];
  readonly maxMessageBytes: number;
  readonly verifySender: SenderVerifier;
  readonly host: string;
  readonly port: number;
  /** PEM certificate and key: STARTTLS is offered only with them. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  readonly now?: () => number;
  readonly onError?: (error: unknown) => void;
}

export interface RunningSmtpIn {
  readonly port: number;
  close(): Promise<void>;
}

type SmtpError = Error & { responseCode: number };

function smtpError(reply: SmtpReply): SmtpError {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

/**
 * Bytes left free before a message for its trace headers (Authentication-Results, Received), so
 * that the stored blob is the received bytes' one buffer: written in front, not concatenated.
 */
const TRACE_ROOM = 1024;

/**
 * The message as smtp-server streams it, copied once into a buffer that starts with `room` free
 * bytes (zeroed): the chunks are kept as they come ('data', not an async iterator) and joined at
 * the end.
 */
function readMessage(stream: SMTPServerDataStream, room: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = room;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.once('error', reject);
    stream.once('end', () => {
      const framed = Buffer.allocUnsafeSlow(size).fill(0, 0, room);
      let at = room;
      for (const chunk of chunks) at += chunk.copy(framed, at);
      resolve(framed);
    });
  });
}

/** `trace` then the message, written into the room before it when it fits. */
function withTrace(framed: Buffer, room: number, trace: string): Buffer {
  const length = Buffer.byteLength(trace);
  if (length > room) return Buffer.concat([Buffer.from(trace), framed.subarray(room)]);
  framed.write(trace, room - length);
  return framed.subarray(room - length);
}

function receivedHeader(session: SMTPServerSession, mta: string, id: string, now: number): string {
  const helo = session.hostNameAppearsAs || 'unknown';
  return `Received: from ${helo} ([${session.remoteAddress}])\r\n\tby ${mta} (tessera) with ESMTP id ${id};\r\n\t${new Date(now).toUTCString()}\r\n`;
}

/** How many mailboxes smtp-in remembers to exist (then it forgets them all and asks again). */
const KNOWN_USERS_MAX = 65_536;

export async function startSmtpIn(options: SmtpInOptions): Promise<RunningSmtpIn> {
  const now = options.now ?? Date.now;
  const mta = options.domains[0] ?? 'localhost';
  // A mailbox is never removed, so one seen to exist needs no second look: the lookup was a read
  // of metadata.db per RCPT, which the worker writes all the time (each read after a write
  // starts over in SQLite's cache). Unknown users are not remembered: one added later is taken.
  const known = new Set<string>();
  const accept = async (address: string): Promise<void> => {
    const verdict = classifyRecipient(address, options.domains);
    if (verdict.kind === 'reject') throw smtpError(verdict.reply);
    if (known.has(verdict.userId)) return;
    if (!(await options.metadata.hasUser(verdict.userId))) throw smtpError(REPLY.unknownUser);
    if (known.size >= KNOWN_USERS_MAX) known.clear();
    known.add(verdict.userId);
  };

  /** The users of the recipients smtp-server accepted for this transaction (each once). */
  const usersOf = (session: SMTPServerSession): string[] => {
    const users = new Set<string>();
    for (const rcpt of session.envelope.rcptTo) {
      const verdict = classifyRecipient(rcpt.address, options.domains);
      if (verdict.kind === 'local') users.add(verdict.userId);
    }
    return [...users];
  };

  const receive = async (stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> => {
    const framed = await readMessage(stream, TRACE_ROOM);
    const raw = framed.subarray(TRACE_ROOM);
    if (stream.sizeExceeded) throw smtpError(REPLY.tooLarge);
    const users = usersOf(session);
    const receivedAt = now();
    const emailId = newEmailId();
    const mailFrom = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
    const auth = await options.verifySender(raw, {
      ip: session.remoteAddress,
      helo: session.hostNameAppearsAs,
      mailFrom,
      mta,
    });
    const trace = `${auth.header === undefined ? '' : `${auth.header}\r\n`}${receivedHeader(session, mta, emailId, receivedAt)}`;
    await options.blobs.put(rawKey(emailId), withTrace(framed, TRACE_ROOM, trace));
    const job: InboundJob = {
      v: 1,
      type: 'inbound',
      email_id: emailId,
      raw_key: rawKey(emailId),
      mail_from: mailFrom,
      recipients: users,
      auth,
      received_at: receivedAt,
    };
    await options.queue.enqueue(TOPIC.inbound, emailId, job);
    return `2.0.0 Ok: queued as ${emailId}`;
  };

  const server = new SMTPServer({
    name: mta,
    banner: 'Tessera mail',
    size: options.maxMessageBytes,
    authOptional: true,
    // This port receives mail for local users; users send through the REST API.
    disabledCommands: options.tls === undefined ? ['AUTH', 'STARTTLS'] : ['AUTH'],
    ...(options.tls === undefined ? {} : { cert: options.tls.cert, key: options.tls.key }),
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      accept(address.address).then(
        () => callback(),
        (error: unknown) => callback(error as Error),
      );
    },
    onData(stream, session, callback) {
      receive(stream, session).then(
        (message) => callback(null, message),
        (error: unknown) => {
          if ((error as Partial<SmtpError>).responseCode === undefined) {
            options.onError?.(error);
            callback(smtpError(REPLY.tempFailure));
          } else callback(error as Error);
        },
      );
    },
  });
  server.on('error', (error) => options.onError?.(error));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
