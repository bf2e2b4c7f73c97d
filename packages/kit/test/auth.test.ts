import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { createAuthenticator, mintToken } from '../src/auth.ts';
import { ConfigError } from '../src/config.ts';
import { ProblemError } from '../src/errors.ts';

const secret = 'a-test-secret-with-at-least-32-characters';

async function rejection(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

t.test('mintToken and verify round trip with the OAuth `scope` claim', async (t) => {
  const token = await mintToken({ secret, sub: 'alice', scopes: ['scores:write', 'trade'] });
  const principal = await createAuthenticator({ secret }).verify(token);
  t.equal(principal.sub, 'alice');
  t.same([...principal.scopes].sort(), ['scores:write', 'trade']);
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
  t.equal(payload['scope'], 'scores:write trade');
  const lifetime = Number(payload['exp']) - Number(payload['iat']);
  t.equal(lifetime, 30 * 24 * 3600, 'default lifetime is 30 days');
});

t.test('verify accepts an `scp` array', async (t) => {
  const token = await new SignJWT({ scp: ['mail', 'trade'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('bob')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
  const principal = await createAuthenticator({ secret }).verify(token);
  t.same([...principal.scopes].sort(), ['mail', 'trade']);
});

t.test('scopes come from `scope` and `scp`, as strings or an array; nothing else counts', async (t) => {
  const auth = createAuthenticator({ secret, cacheSize: 0 });
  const scopesOf = async (claims: Record<string, unknown>) => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('s')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    return [...(await auth.verify(token)).scopes].sort();
  };
  t.same(await scopesOf({ scope: 'a b' }), ['a', 'b'], '`scope` string');
  t.same(await scopesOf({ scp: 'a  b' }), ['a', 'b'], '`scp` string');
  t.same(await scopesOf({ scp: ['a', 7, 'b'] }), ['a', 'b'], '`scp` array, non-strings ignored');
  t.same(await scopesOf({ scope: 'a', scp: ['b'] }), ['a', 'b'], 'both, united');
  t.same(await scopesOf({ scope: ['a'] }), ['a'], '`scope` array (lenient)');
  t.same(await scopesOf({ scope: 5, scopes: 'b', roles: ['c'] }), [], 'other shapes and claims carry none');
});

t.test('verify rejects with KIT_UNAUTHORIZED and says why', async (t) => {
  const auth = createAuthenticator({ secret });
  const expired = await mintToken({ secret, sub: 'a', scopes: [], ttlSeconds: -10 });
  const wrong = await mintToken({ secret: 'another-secret-of-sufficient-length-xx', sub: 'a', scopes: [] });
  const noSub = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
  const cases: [string, string, RegExp][] = [
    ['expired', expired, /expired/],
    ['wrong secret', wrong, /signature/],
    ['garbage', 'not.a.jwt', /malformed/],
    ['empty', '', /malformed/],
    ['no sub', noSub, /"sub"/],
  ];
  for (const [name, token, detail] of cases) {
    const error = await rejection(auth.verify(token));
    t.equal(error.code, 'KIT_UNAUTHORIZED', name);
    t.equal(error.status, 401, name);
    t.match(error.detail, detail, name);
  }
});

t.test('issuer and audience are enforced when configured', async (t) => {
  const auth = createAuthenticator({ secret, issuer: 'tessera', audience: 'leaderboard' });
  const good = await mintToken({ secret, sub: 'a', scopes: [], issuer: 'tessera', audience: 'leaderboard' });
  t.equal((await auth.verify(good)).sub, 'a');
  const bad = await mintToken({ secret, sub: 'a', scopes: [], issuer: 'tessera', audience: 'exchange' });
  t.match((await rejection(auth.verify(bad))).detail, /"aud"/);
});

t.test('createAuthenticator needs a secret or a JWKS URL', async (t) => {
  t.throws(() => createAuthenticator({}), ConfigError);
});

t.test('RS256 tokens verify against a JWKS served over HTTP', async (t) => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;

  const auth = createAuthenticator({ jwksUrl: `http://127.0.0.1:${port}/jwks.json` });
  const token = await new SignJWT({ scope: 'trade' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('carol')
    .setExpirationTime('5m')
    .sign(privateKey);
  const principal = await auth.verify(token);
  t.equal(principal.sub, 'carol');
  t.ok(principal.scopes.has('trade'));

  const other = await generateKeyPair('RS256');
  const forged = await new SignJWT({ scope: 'trade' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('mallory')
    .setExpirationTime('5m')
    .sign(other.privateKey);
  t.match((await rejection(auth.verify(forged))).detail, /signature/);

  // Without a secret configured, an HS256 token is refused outright (no algorithm confusion).
  const hs = await mintToken({ secret, sub: 'x', scopes: [] });
  t.match((await rejection(auth.verify(hs))).detail, /algorithm/);
});
