/**
 * The events between roles: plain, versioned, JSON-serialisable objects naming what they
 * concern (DESIGN.md, events). The queue carries them by topic (`mail.inbound`, ...).
 */
import type { Address } from './address.ts';

export const TOPIC = {
  inbound: 'mail.inbound',
  outbound: 'mail.outbound',
  errors: 'mail.errors',
  changes: 'mail.changes',
} as const;
export type Topic = (typeof TOPIC)[keyof typeof TOPIC];

/** Authentication results recorded by smtp-in (or 'none' for mail sent through the API). */
export interface AuthResults {
  readonly spf: string;
  readonly dkim: string;
  readonly dmarc: string;
  /** The Authentication-Results header mailauth produced, for the message detail. */
  readonly header?: string;
}

/** A message accepted for local mailboxes: its raw MIME is in the blob store. */
export interface InboundJob {
  readonly v: 1;
  readonly type: 'inbound';
  /** Natural id: one per accepted message; each recipient's copy is stored under this email_id. */
  readonly email_id: string;
  readonly raw_key: string;
  readonly mail_from: string;
  /** Local user ids to deliver to. */
  readonly recipients: readonly string[];
  readonly auth: AuthResults;
  readonly received_at: number;
}

/** One remote recipient of a sent message (one job each, so a crash never resends to another). */
export interface OutboundJob {
  readonly v: 1;
  readonly type: 'outbound';
  readonly email_id: string;
  readonly raw_key: string;
  readonly sender_user_id: string;
  readonly mail_from: string;
  readonly recipient: string;
  readonly subject: string;
  readonly message_id: string;
  readonly queued_at: number;
}

/**
 * Mail that failed after it was accepted (undeliverable, unparseable, unknown local user),
 * with the reason: the error queue. Each one comes back to a local sender as a bounce.
 */
export interface ErrorJob {
  readonly v: 1;
  readonly type: 'error';
  readonly email_id: string;
  readonly mail_from: string;
  readonly recipient: string;
  /** Enhanced status code (RFC 3463). */
  readonly status: string;
  readonly diagnostic: string;
  readonly remote_mta?: string;
  readonly subject: string;
  readonly message_id?: string;
  readonly queued_at: number;
}

/** What the search index keeps of a message. */
export interface SearchDocument {
  readonly user_id: string;
  readonly email_id: string;
  readonly folder_id: string;
  readonly from: Address;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly subject: string;
  readonly body: string;
  readonly is_read: boolean;
  readonly has_attachment: boolean;
  readonly received_at: number;
}

/**
 * A message was stored, changed or deleted. The event names the message only: the indexer
 * reads its current state, so redelivered or reordered events still leave the index right.
 */
export interface ChangeEvent {
  readonly v: 1;
  readonly type: 'message.changed';
  readonly user_id: string;
  readonly email_id: string;
}

/** What an online client is told (WebSocket or long poll). */
export interface PushEvent {
  readonly type: 'message.new' | 'message.updated' | 'message.deleted';
  readonly email_id: string;
  readonly folder_id?: string;
}
