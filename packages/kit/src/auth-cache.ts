import type { Authenticator, Principal } from './auth.ts';

export interface AuthCacheOptions {
  /** Most tokens remembered; the least recently used goes first. */
  readonly maxEntries: number;
  /** Longest a verification is trusted without checking again (a JWKS key may be rotated). */
  readonly maxAgeMs: number;
  readonly now?: () => number;
}

/**
 * Remembers tokens that verified, until their `exp` or `maxAgeMs`, whichever is sooner.
 *
 * Why: a game server or a client sends the same token with every call, and verifying it costs
 * more than the call (jose checks signatures through WebCrypto, a thread-pool round trip each
 * time). A token's verification depends only on the token and the keys, so the answer can be
 * reused; failures are never cached.
 */
export function cachingAuthenticator(inner: Authenticator, options: AuthCacheOptions): Authenticator {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { principal: Principal; until: number }>();
  const known = (token: string, at: number): Principal | undefined => {
    const hit = entries.get(token);
    if (hit === undefined) return undefined;
    entries.delete(token);
    if (hit.until <= at) return undefined;
    entries.set(token, hit);
    return hit.principal;
  };
  return {
    known: (token) => known(token, now()),
    async verify(token) {
      const at = now();
      const hit = known(token, at);
      if (hit !== undefined) return hit;
      const principal = await inner.verify(token);
      const expires = principal.expiresAt === undefined ? Infinity : principal.expiresAt * 1000;
      entries.set(token, { principal, until: Math.min(expires, at + options.maxAgeMs) });
      if (entries.size > options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return principal;
    },
  };
}
