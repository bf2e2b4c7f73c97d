import t from 'tap';
import { cachingAuthenticator } from '../src/auth-cache.ts';
import type { Authenticator, Principal } from '../src/auth.ts';
import { kitErrors } from '../src/errors.ts';

function counting(principals: Record<string, Principal>): Authenticator & { calls: number } {
  const inner = {
    calls: 0,
    verify(token: string): Promise<Principal> {
      inner.calls++;
      const principal = principals[token];
      return principal ? Promise.resolve(principal) : Promise.reject(kitErrors.KIT_UNAUTHORIZED('bad token'));
    },
  };
  return inner;
}

const alice: Principal = { sub: 'alice', scopes: new Set(['scores:read']), expiresAt: 2_000 };

t.test('a verified token is answered from the cache, also synchronously', async (t) => {
  const inner = counting({ a: alice });
  const cache = cachingAuthenticator(inner, { maxEntries: 10, maxAgeMs: 60_000, now: () => 1_000_000 });
  t.equal(cache.known?.('a'), undefined, 'unknown before the first verification');
  t.equal(await cache.verify('a'), alice);
  t.equal(await cache.verify('a'), alice);
  t.equal(cache.known?.('a'), alice);
  t.equal(inner.calls, 1);
});

t.test('a cached token stops being accepted at its exp', async (t) => {
  let now = 1_999_000;
  const inner = counting({ a: alice });
  const cache = cachingAuthenticator(inner, { maxEntries: 10, maxAgeMs: 60_000, now: () => now });
  await cache.verify('a');
  now = 2_000_000; // exp is 2,000 s
  t.equal(cache.known?.('a'), undefined);
  await cache.verify('a');
  t.equal(inner.calls, 2, 'checked again once expired');
});

t.test('an entry is trusted for maxAgeMs at most (keys may rotate)', async (t) => {
  let now = 0;
  const forever: Principal = { sub: 'svc', scopes: new Set() };
  const inner = counting({ s: forever });
  const cache = cachingAuthenticator(inner, { maxEntries: 10, maxAgeMs: 1_000, now: () => now });
  await cache.verify('s');
  now = 999;
  await cache.verify('s');
  now = 1_000;
  await cache.verify('s');
  t.equal(inner.calls, 2);
});

t.test('failures are never cached', async (t) => {
  const inner = counting({});
  const cache = cachingAuthenticator(inner, { maxEntries: 10, maxAgeMs: 60_000, now: () => 0 });
  await t.rejects(cache.verify('x'), { code: 'KIT_UNAUTHORIZED' });
  await t.rejects(cache.verify('x'), { code: 'KIT_UNAUTHORIZED' });
  t.equal(inner.calls, 2);
});

t.test('the cache holds at most maxEntries, dropping the least recently used', async (t) => {
  const p = (sub: string): Principal => ({ sub, scopes: new Set() });
  const inner = counting({ a: p('a'), b: p('b'), c: p('c') });
  const cache = cachingAuthenticator(inner, { maxEntries: 2, maxAgeMs: 60_000, now: () => 0 });
  await cache.verify('a');
  await cache.verify('b');
  await cache.verify('a'); // a is now the most recent
  await cache.verify('c'); // drops b
  t.ok(cache.known?.('a'));
  t.equal(cache.known?.('b'), undefined);
  t.ok(cache.known?.('c'));
});
