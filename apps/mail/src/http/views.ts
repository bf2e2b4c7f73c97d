/** How stored messages and push records look on the wire (snake_case, ISO dates, no blob keys). */
import type { PushRecord, StoredMessage } from '../ports.ts';

const SNIPPET_LENGTH = 200;

export function summaryView(m: StoredMessage) {
  return {
    email_id: m.email_id,
    user_id: m.user_id,
    folder_id: m.folder_id,
    thread_id: m.thread_id,
    from: m.from,
    to: m.to,
    cc: m.cc,
    subject: m.subject,
    snippet: m.body.slice(0, SNIPPET_LENGTH),
    is_read: m.is_read,
    received_at: new Date(m.received_at).toISOString(),
    has_attachments: m.attachments.length > 0,
  };
}

export function messageView(m: StoredMessage) {
  return {
    ...summaryView(m),
    ...(m.bcc.length === 0 ? {} : { bcc: m.bcc }),
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
