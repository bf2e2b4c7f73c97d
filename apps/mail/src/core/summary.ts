/**
 * What a message list shows of each message (spec/mail.md, folder listing): its headers, the
 * start of its body and whether it has attachments. Stored beside the message when it is filed,
 * so a list reads no body and no attachment rows.
 */
import type { Address } from './address.ts';

/** Characters (UTF-16 code units, as String#slice counts) of the body a list shows. */
export const SNIPPET_LENGTH = 200;

export interface MessageSummary {
  readonly user_id: string;
  readonly email_id: string;
  readonly folder_id: string;
  readonly thread_id: string;
  readonly from: Address;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly subject: string;
  readonly snippet: string;
  readonly is_read: boolean;
  readonly received_at: number;
  readonly has_attachments: boolean;
}

/** The part of a summary that never changes once a message is filed (what the store keeps). */
export type SummaryHeaders = Pick<MessageSummary, 'from' | 'to' | 'cc' | 'subject' | 'snippet'>;

/** The fields of a whole message (ports.ts StoredMessage) a summary is made from. */
interface Whole extends Omit<MessageSummary, 'snippet' | 'has_attachments'> {
  readonly body: string;
  readonly attachments: readonly unknown[];
}

export function summaryHeaders(m: Pick<Whole, 'from' | 'to' | 'cc' | 'subject' | 'body'>): SummaryHeaders {
  return { from: m.from, to: m.to, cc: m.cc, subject: m.subject, snippet: m.body.slice(0, SNIPPET_LENGTH) };
}

/** The summary of a whole message: what the list would show of it. */
export function summaryOf(m: Whole): MessageSummary {
  return {
    user_id: m.user_id,
    email_id: m.email_id,
    folder_id: m.folder_id,
    thread_id: m.thread_id,
    ...summaryHeaders(m),
    is_read: m.is_read,
    received_at: m.received_at,
    has_attachments: m.attachments.length > 0,
  };
}
