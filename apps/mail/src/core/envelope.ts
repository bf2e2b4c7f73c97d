/**
 * Who receives a message (the SMTP envelope) versus who is named in its headers: Bcc
 * recipients are in the envelope only, so no delivered copy reveals them (RFC 5322 §3.6.3).
 */
import { domainOf, normalizeEmail, type Address } from './address.ts';

export interface Recipients {
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly bcc: readonly Address[];
}

export interface Envelope {
  /** Recipients in a local domain: delivered without SMTP (after the spam check). */
  readonly local: readonly string[];
  /** Recipients elsewhere: queued for smtp-out. */
  readonly remote: readonly string[];
}

/** Every recipient once (an address in both To and Bcc receives one copy). */
export function envelopeOf(recipients: Recipients, localDomains: readonly string[]): Envelope {
  const seen = new Set<string>();
  const local: string[] = [];
  const remote: string[] = [];
  for (const address of [...recipients.to, ...recipients.cc, ...recipients.bcc]) {
    const email = normalizeEmail(address.email);
    const key = email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    (localDomains.includes(domainOf(email)) ? local : remote).push(email);
  }
  return { local, remote };
}

/** The recipients a delivered copy names in its headers: To and Cc, never Bcc. */
export function deliveredHeaders(recipients: Recipients): { to: readonly Address[]; cc: readonly Address[] } {
  return { to: recipients.to, cc: recipients.cc };
}
