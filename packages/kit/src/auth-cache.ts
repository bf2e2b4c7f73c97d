import { LRUCache } from 'lru-cache';
import type { Authenticator, Principal } from './auth.ts';

export interface AuthCacheOptions {
  /** Most tokens remembered; the least recently used goes first. */
  readonly maxEntries: number;
  /** Longest a verification is trusted without checking again (a JWKS key may be rotated). */
  readonly maxAgeMs: number;
  readonly now?: () => number;
}

interface Verified {
  readonly principal: Principal;
  /** Epoch ms: min(exp, verified + maxAgeMs). */
  readonly until: number;
}

/**
 * Remembers tokens that verified, until their `exp` or `maxAgeMs`, whichever is sooner.
 *
 * Why: a game server or a client sends the same token with every call, and verifying it costs
 * more than the call (jose checks signatures through WebCrypto, a thread-pool round trip each
 * time). A token's verification depends only on the token and the keys, so the answer can be
 * reused; failures are never cached. lru-cache keeps the bound and the recency order; the expiry
 * is checked here, on the injectable clock, so that an entry is refused from its `until` on.
 */
export function cachingAuthenticator(inner: Authenticator, options: AuthCacheOptions): Authenticator {
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Verified>({ max: options.maxEntries });
  const known = (token: string, at: number): Principal | undefined => {
    const hit = entries.get(token);
    if (hit === undefined) return undefined;
    if (hit.until > at) return hit.principal;
    entries.delete(token);
    return undefined;
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
      return principal;
    },
  };
}
