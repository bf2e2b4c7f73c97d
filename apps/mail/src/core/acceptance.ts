/**
 * What smtp-in answers for each RCPT TO (RFC 5321 §4.2, enhanced codes RFC 3463): only local
 * domains are accepted, so the server is no open relay; an unknown local user is 550 5.1.1.
 */
import { domainOf, isValidEmail, localPartOf } from './address.ts';

export interface SmtpReply {
  readonly code: number;
  readonly message: string;
}

export type RecipientClass =
  | { readonly kind: 'local'; readonly userId: string }
  | { readonly kind: 'reject'; readonly reply: SmtpReply };

export const REPLY = {
  relayDenied: {
    code: 550,
    message: '5.7.1 Relaying denied: this server accepts mail for its own domains only',
  },
  unknownUser: { code: 550, message: '5.1.1 No such user here' },
  badAddress: { code: 553, message: '5.1.3 Bad recipient address syntax' },
  tooLarge: { code: 552, message: '5.3.4 Message exceeds the size limit' },
  tempFailure: { code: 451, message: '4.3.0 Temporary failure, try again later' },
} as const satisfies Record<string, SmtpReply>;

/** Classifies a recipient by its address alone; the caller still checks that the user exists. */
export function classifyRecipient(address: string, localDomains: readonly string[]): RecipientClass {
  if (!isValidEmail(address)) return { kind: 'reject', reply: REPLY.badAddress };
  if (!localDomains.includes(domainOf(address))) return { kind: 'reject', reply: REPLY.relayDenied };
  return { kind: 'local', userId: localPartOf(address) };
}
