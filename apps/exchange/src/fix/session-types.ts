/** What a FIX session (session.ts) takes, asks of its directory, and answers. */
import type { FixMessage } from './codec.ts';
import type { SentStore } from './resend.ts';

export interface Sequences {
  /** The MsgSeqNum expected on the next inbound message. */
  readonly nextIn: number;
  /** The MsgSeqNum of the next outbound message. */
  readonly nextOut: number;
}

/** What the session needs from outside at logon: who a sender is, and where its numbers stand. */
export interface SessionDirectory {
  /** The account a SenderCompID and password log on as, or undefined. */
  authenticate(senderCompId: string, password: string | undefined): string | undefined;
  sequences(senderCompId: string): Sequences;
  /** The application messages kept for a resend to this SenderCompID (by MsgSeqNum). */
  sentMessages(senderCompId: string): SentStore;
}

export type SessionAction =
  | { readonly kind: 'send'; readonly frame: string }
  | { readonly kind: 'logon'; readonly senderCompId: string; readonly account: string }
  | { readonly kind: 'app'; readonly message: FixMessage; readonly msgType: string; readonly seq: number }
  | { readonly kind: 'close'; readonly reason: string };

export interface SessionOptions {
  readonly compId: string;
  readonly directory: SessionDirectory;
  /** Outbound application messages kept for a resend (default 10,000; older ones are gap-filled). */
  readonly resendWindow?: number;
}
