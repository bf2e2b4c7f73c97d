/**
 * Mail addresses as the service accepts them: `local@domain` with a dot-atom local part
 * (RFC 5322 §3.4.1, no quoted strings) and an LDH domain name; lengths as RFC 5321 §4.5.3.1.
 */

export interface Address {
  readonly name: string;
  readonly email: string;
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATEXT}(\\.${ATEXT})*$`);
const LABEL = '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(\\.${LABEL})+$`);
// A name is shown in a header; line breaks there would let a sender forge further headers.
const HEADER_UNSAFE = /[\r\n\0]/;

export function isValidEmail(email: string): boolean {
  if (email.length > 254) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return local.length <= 64 && LOCAL_PART.test(local) && domain.length <= 253 && DOMAIN.test(domain);
}

export function isValidDisplayName(name: string): boolean {
  return name.length <= 256 && !HEADER_UNSAFE.test(name);
}

/** The local part keeps its case (RFC 5321 §2.4); the domain is case-insensitive and lower-cased. */
export function normalizeEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
}

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function localPartOf(email: string): string {
  return email.slice(0, email.lastIndexOf('@'));
}

export function isLocalDomain(domain: string, domains: readonly string[]): boolean {
  return domains.includes(domain.toLowerCase());
}

/** A user's mailbox address: the token's subject at the primary domain. */
export function mailboxOf(userId: string, domain: string): string {
  return `${userId}@${domain}`;
}

/** True when a token subject can be the local part of a mailbox address. */
export function isValidUserId(userId: string): boolean {
  return userId.length <= 64 && LOCAL_PART.test(userId);
}
