import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGES_CSP, createAuthenticator, loadOrCreateSecret } from '@tessera/kit';
import t, { type Test } from 'tap';
import { startPlatform } from '../src/platform.ts';
import { SIGNIN_TTL_SECONDS, isLoopbackHost } from '../src/signin.ts';

function env(t: Test, extra: Record<string, string> = {}): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-signin-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { PORT: '0', SMTP_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent', ...extra };
}

const post = (url: string, body: unknown) =>
  fetch(`${url}/signin/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

t.test('the development sign-in mints a token the platform accepts, for the chosen scopes', async (t) => {
  const settings = env(t);
  const platform = await startPlatform({ env: settings, handleSignals: false });
  t.teardown(() => platform.close());

  const minted = await post(platform.url, { sub: 'ana', scopes: ['scores:read', 'mail'] });
  t.equal(minted.status, 200);
  const body = (await minted.json()) as { token: string; sub: string; scopes: string[]; expires_in: number };
  t.equal(body.sub, 'ana');
  t.equal(body.expires_in, SIGNIN_TTL_SECONDS);
  const principal = await createAuthenticator({ secret: loadOrCreateSecret(settings.DATA_DIR!) }).verify(
    body.token,
  );
  t.equal(principal.sub, 'ana');
  t.same([...principal.scopes].sort(), ['mail', 'scores:read']);

  const scores = await fetch(`${platform.url}/v1/scores`, {
    headers: { authorization: `Bearer ${body.token}` },
  });
  t.equal(scores.status, 200, 'the token works on the API');

  for (const bad of [
    { sub: 'ana', scopes: [] },
    { sub: 'ana', scopes: ['root'] },
    { sub: 'ana@x', scopes: ['mail'] },
    { sub: 'ana', scopes: ['mail'], ttl: 1 },
  ]) {
    t.equal((await post(platform.url, bad)).status, 400, JSON.stringify(bad));
  }

  const openapi = (await (await fetch(`${platform.url}/docs/openapi.json`)).json()) as { paths: object };
  t.notOk('/signin/token' in openapi.paths, 'a development route, not part of the API reference');

  for (const page of ['/signin/', '/mail/', '/exchange/', '/leaderboard/', '/common/api.js']) {
    const response = await fetch(`${platform.url}${page}`);
    t.equal(response.status, 200, page);
    t.equal(response.headers.get('content-security-policy'), PAGES_CSP, `${page} has the CSP`);
  }
  const bare = await fetch(`${platform.url}/mail`, { redirect: 'manual' });
  t.equal(bare.headers.get('location'), '/mail/');
});

t.test('with an identity provider (AUTH_JWKS_URL) there is no sign-in route', async (t) => {
  const platform = await startPlatform({
    env: env(t, { AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json' }),
    handleSignals: false,
  });
  t.teardown(() => platform.close());
  t.equal((await post(platform.url, { sub: 'ana', scopes: ['admin'] })).status, 404);
  t.equal((await fetch(`${platform.url}/mail/`)).status, 200, 'the pages are still served');
});

t.test(
  'listening beyond loopback there is no sign-in route: nobody on the network mints a token',
  async (t) => {
    const platform = await startPlatform({ env: env(t, { HOST: '0.0.0.0' }), handleSignals: false });
    t.teardown(() => platform.close());
    const local = platform.url.replace(/\/\/[^:/]+|\/\/\[[^\]]+\]/, '//127.0.0.1');
    t.equal((await post(local, { sub: 'ana', scopes: ['admin'] })).status, 404);
    t.equal((await fetch(`${local}/mail/`)).status, 200, 'the pages are still served');
  },
);

t.test('which hosts are loopback', (t) => {
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) t.ok(isLoopbackHost(host), host);
  for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.test', '127.example.test'])
    t.notOk(isLoopbackHost(host), host);
  t.end();
});
