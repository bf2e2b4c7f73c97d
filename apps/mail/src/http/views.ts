/** How stored messages and push records look on the wire (snake_case, ISO dates, no blob keys). */
import type { Address } from '../core/address.ts';
import { summaryOf, type MessageSummary } from '../core/summary.ts';
import type { PushRecord, StoredMessage } from '../ports.ts';

/*
 * Every view lists its fields in its response schema's order (schemas.ts) and only those, so
 * JSON.stringify of a view writes the bytes the route's schema serializer writes (fast-message.ts
 * relies on it; test/http/fast-message.test.ts checks it).
 */

const addressView = (a: Address) => ({ name: a.name, email: a.email });

export function summaryView(s: MessageSummary) {
  return {
    email_id: s.email_id,
    user_id: s.user_id,
    folder_id: s.folder_id,
    thread_id: s.thread_id,
    from: addressView(s.from),
    to: s.to.map(addressView),
    cc: s.cc.map(addressView),
    subject: s.subject,
    snippet: s.snippet,
    is_read: s.is_read,
    received_at: new Date(s.received_at).toISOString(),
    has_attachments: s.has_attachments,
  };
}

export function messageView(m: StoredMessage) {
  return {
    ...summaryView(summaryOf(m)),
    ...(m.bcc.length === 0 ? {} : { bcc: m.bcc.map(addressView) }),
    body: m.body,
    ...(m.html === undefined ? {} : { html: m.html }),
    message_id: m.message_id,
    ...(m.in_reply_to === undefined ? {} : { in_reply_to: m.in_reply_to }),
    references: m.references,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      content_type: a.content_type,
      size: a.size,
    })),
    ...(m.auth === undefined ? {} : { auth: { spf: m.auth.spf, dkim: m.auth.dkim, dmarc: m.auth.dmarc } }),
    ...(m.spam_score === undefined ? {} : { spam_score: m.spam_score }),
  };
}

export function pushView(r: PushRecord) {
  return { seq: r.seq, at: new Date(r.at).toISOString(), ...r.event };
}
