import type { SearchDocument } from './events.ts';

/** The part of a stored message the search index keeps (what the query language can reach). */
export function searchDocumentOf(message: {
  readonly user_id: string;
  readonly email_id: string;
  readonly folder_id: string;
  readonly from: SearchDocument['from'];
  readonly to: SearchDocument['to'];
  readonly cc: SearchDocument['cc'];
  readonly subject: string;
  readonly body: string;
  readonly is_read: boolean;
  readonly received_at: number;
  readonly attachments: readonly unknown[];
}): SearchDocument {
  return {
    user_id: message.user_id,
    email_id: message.email_id,
    folder_id: message.folder_id,
    from: message.from,
    to: message.to,
    cc: message.cc,
    subject: message.subject,
    body: message.body,
    is_read: message.is_read,
    has_attachment: message.attachments.length > 0,
    received_at: message.received_at,
  };
}
