/**
 * Sending (POST /v1/messages): the use case writes each step itself — raw message and
 * attachments to the blob store, the Sent copy, then one job per delivery — so any adapters
 * behind the ports behave the same. Bcc recipients are in the jobs' envelopes, never in the
 * composed message.
 */
import { localPartOf, mailboxOf, type Address } from './core/address.ts';
import { newEmailId } from './core/email-id.ts';
import { deliveredHeaders, envelopeOf } from './core/envelope.ts';
import { TOPIC, type InboundJob, type OutboundJob } from './core/events.ts';
import { FOLDER } from './core/folders.ts';
import { decodeBase64, validateDraft, type Draft, type DraftLimits } from './core/message.ts';
import { normalizeMessageId } from './core/threading.ts';
import { rawKey } from './blob-keys.ts';
import { composeMessage } from './mime/compose.ts';
import type { MailPorts, StoredMessage } from './ports.ts';
import { joinThread, storeAttachments } from './store-steps.ts';

/** The request body of POST /v1/messages. */
export interface SendInput {
  readonly to?: readonly Address[];
  readonly cc?: readonly Address[];
  readonly bcc?: readonly Address[];
  readonly subject: string;
  readonly body: string;
  readonly html?: string;
  readonly attachments?: readonly { filename: string; content_type: string; content: string }[];
  readonly in_reply_to?: string;
  readonly references?: readonly string[];
}

/** The draft a request describes; a malformed attachment names its field. */
export function draftOf(input: SendInput): Draft {
  return {
    to: input.to ?? [],
    cc: input.cc ?? [],
    bcc: input.bcc ?? [],
    subject: input.subject,
    body: input.body,
    ...(input.html === undefined ? {} : { html: input.html }),
    attachments: (input.attachments ?? []).map((a, i) => ({
      filename: a.filename,
      contentType: a.content_type,
      content: decodeBase64(a.content, `attachments[${i}].content`),
    })),
    ...(input.in_reply_to === undefined ? {} : { inReplyTo: normalizeMessageId(input.in_reply_to) }),
    references: (input.references ?? []).map(normalizeMessageId),
  };
}

export interface SendDeps {
  readonly ports: MailPorts;
  /** Local domains; the first is the sender's. */
  readonly domains: readonly string[];
  readonly now: () => number;
}

export async function sendMessage(
  deps: SendDeps,
  userId: string,
  draft: Draft,
  limits: DraftLimits,
): Promise<StoredMessage> {
  validateDraft(draft, limits);
  const { metadata, blobs, queue } = deps.ports;
  const domain = deps.domains[0] ?? 'localhost';
  const at = deps.now();
  const emailId = newEmailId();
  const messageId = `${emailId}@${domain}`;
  const from: Address = { name: '', email: mailboxOf(userId, domain) };

  // 1. The message as recipients will see it, and its attachments, to the blob store.
  const raw = await composeMessage({
    from,
    ...deliveredHeaders(draft),
    subject: draft.subject,
    text: draft.body,
    ...(draft.html === undefined ? {} : { html: draft.html }),
    messageId,
    ...(draft.inReplyTo === undefined ? {} : { inReplyTo: draft.inReplyTo }),
    references: draft.references,
    date: new Date(at),
    attachments: draft.attachments,
  });
  const raw_key = rawKey(emailId);
  await blobs.put(raw_key, raw);
  const attachments = await storeAttachments(blobs, userId, emailId, draft.attachments);

  // 2. The sender's copy in Sent (the only copy that keeps Bcc).
  const headers = { messageId, inReplyTo: draft.inReplyTo, references: draft.references };
  const sent: StoredMessage = {
    user_id: userId,
    email_id: emailId,
    folder_id: FOLDER.sent,
    thread_id: await joinThread(metadata, userId, headers, emailId),
    message_id: messageId,
    ...(draft.inReplyTo === undefined ? {} : { in_reply_to: draft.inReplyTo }),
    references: draft.references,
    from,
    to: draft.to,
    cc: draft.cc,
    bcc: draft.bcc,
    subject: draft.subject,
    body: draft.body,
    ...(draft.html === undefined ? {} : { html: draft.html }),
    is_read: true,
    received_at: at,
    attachments,
  };
  await metadata.insertMessage(sent);

  // 3. Deliveries: local recipients skip SMTP but not the worker's spam check and filing.
  const envelope = envelopeOf(draft, deps.domains);
  if (envelope.local.length > 0) {
    const job: InboundJob = {
      v: 1,
      type: 'inbound',
      email_id: newEmailId(),
      raw_key,
      mail_from: from.email,
      recipients: [...new Set(envelope.local.map(localPartOf))],
      auth: { spf: 'pass', dkim: 'none', dmarc: 'none' },
      received_at: at,
    };
    await queue.enqueue(TOPIC.inbound, job.email_id, job);
  }
  // 4. One outbound job per remote recipient, so each is acked (and never resent) on its own.
  for (const recipient of envelope.remote) {
    const job: OutboundJob = {
      v: 1,
      type: 'outbound',
      email_id: emailId,
      raw_key,
      sender_user_id: userId,
      mail_from: from.email,
      recipient,
      subject: draft.subject,
      message_id: messageId,
      queued_at: at,
    };
    await queue.enqueue(TOPIC.outbound, `${emailId}/${recipient}`, job);
  }
  return sent;
}
