/**
 * Who may log on over FIX, from configuration: `FIX_CREDENTIALS` is a comma-separated list of
 * `SenderCompID:password:account`; a Logon with that SenderCompID and Password (554) trades as
 * that account (the same account a REST token's subject names). Passwords are compared in
 * constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export interface FixCredential {
  readonly senderCompId: string;
  readonly password: string;
  readonly account: string;
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function parseCredentials(text: string): FixCredential[] {
  const credentials: FixCredential[] = [];
  for (const entry of text.split(',').map((s) => s.trim())) {
    if (entry === '') continue;
    const [senderCompId = '', password = '', account = '', extra] = entry.split(':');
    if (extra !== undefined || !NAME.test(senderCompId) || password === '' || !NAME.test(account)) {
      throw new RangeError(
        `entry "${senderCompId}:…" is not SenderCompID:password:account (names of letters, digits, ".", "_", "-")`,
      );
    }
    if (credentials.some((c) => c.senderCompId === senderCompId)) {
      throw new RangeError(`SenderCompID ${senderCompId} is listed twice`);
    }
    credentials.push({ senderCompId, password, account });
  }
  return credentials;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The account a SenderCompID and password log on as, or undefined. */
export function authenticator(
  credentials: readonly FixCredential[],
): (senderCompId: string, password: string | undefined) => string | undefined {
  const bySender = new Map(credentials.map((c) => [c.senderCompId, { ...c, hash: digest(c.password) }]));
  return (senderCompId, password) => {
    const credential = bySender.get(senderCompId);
    if (credential === undefined || password === undefined) return undefined;
    return timingSafeEqual(credential.hash, digest(password)) ? credential.account : undefined;
  };
}
