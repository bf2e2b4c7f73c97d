/**
 * The error queue's bounces: a failure (a message not delivered to a recipient) comes back to its
 * sender as a delivery status notification (RFC 3464), filed as inbound mail, when the sender is
 * a local user; otherwise it is only logged by the queue.
 */
import { domainOf, localPartOf } from '../core/address.ts';
import { buildBounce } from '../core/dsn.ts';
import { newEmailId } from '../core/email-id.ts';
import { TOPIC, type ErrorJob, type InboundJob } from '../core/events.ts';
import { rawKey } from '../blob-keys.ts';
import { composeMessage } from '../mime/compose.ts';
import type { BlobStore, MetadataStore, Queue } from '../ports.ts';

export interface BounceOptions {
  readonly queue: Queue;
  readonly blobs: BlobStore;
  readonly metadata: MetadataStore;
  readonly domains: readonly string[];
  readonly now: () => number;
}

/** A failure comes back to its sender when the sender is a local user; otherwise it is only logged by the queue. */
export function bounceSender(options: BounceOptions): (error: ErrorJob) => Promise<void> {
  const { queue, blobs, metadata, now } = options;
  return async (error) => {
    const domain = options.domains[0] ?? 'localhost';
    if (error.mail_from === '' || !options.domains.includes(domainOf(error.mail_from))) return;
    const sender = localPartOf(error.mail_from);
    if (!(await metadata.hasUser(sender))) return;
    const at = now();
    const bounce = buildBounce({
      domain,
      sender: error.mail_from,
      recipient: error.recipient,
      status: error.status,
      diagnostic: error.diagnostic,
      remoteMta: error.remote_mta,
      originalMessageId: error.message_id,
      originalSubject: error.subject,
      arrivedAt: error.queued_at,
      now: at,
    });
    const emailId = newEmailId();
    const raw = await composeMessage({
      from: { name: 'Mail Delivery System', email: bounce.from },
      to: [{ name: '', email: bounce.to }],
      cc: [],
      subject: bounce.subject,
      text: bounce.text,
      messageId: `${emailId}@${domain}`,
      ...(bounce.inReplyTo === undefined ? {} : { inReplyTo: bounce.inReplyTo }),
      references: bounce.inReplyTo === undefined ? [] : [bounce.inReplyTo],
      date: new Date(at),
      attachments: [],
      parts: [{ contentType: 'message/delivery-status', content: bounce.deliveryStatus }],
    });
    await blobs.put(rawKey(emailId), raw);
    const job: InboundJob = {
      v: 1,
      type: 'inbound',
      email_id: emailId,
      raw_key: rawKey(emailId),
      // A bounce has the null reverse-path (RFC 5321 §4.5.5): it is never bounced itself.
      mail_from: '',
      recipients: [sender],
      auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
      received_at: at,
    };
    await queue.enqueue(TOPIC.inbound, emailId, job);
  };
}
