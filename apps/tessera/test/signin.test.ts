import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGES_CSP, createAuthenticator, loadOrCreateSecret } from '@tessera/kit';
import t, { type Test } from 'tap';
import { leaderboard } from '@tessera/leaderboard';
import { startPlatform, startRole } from '../src/platform.ts';
import { SIGNIN_TTL_SECONDS, isLoopbackHost } from '../src/signin.ts';

function env(t: Test, extra: Record<string, string> = {}): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-signin-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return {
    PORT: '0',
    SMTP_PORT: '0',
    FIX_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    ...extra,
  };
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

t.test(
  'DEV_SIGNIN=true offers it beyond loopback (a development cluster), never with AUTH_JWKS_URL',
  async (t) => {
    const platform = await startPlatform({
      env: env(t, { HOST: '0.0.0.0', DEV_SIGNIN: 'true' }),
      handleSignals: false,
    });
    t.teardown(() => platform.close());
    const local = platform.url.replace(/\/\/[^:/]+|\/\/\[[^\]]+\]/, '//127.0.0.1');
    t.equal((await post(local, { sub: 'ana', scopes: ['scores:read'] })).status, 200);

    const withIdp = await startPlatform({
      env: env(t, { HOST: '0.0.0.0', DEV_SIGNIN: 'true', AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json' }),
      handleSignals: false,
    });
    t.teardown(() => withIdp.close());
    const idpLocal = withIdp.url.replace(/\/\/[^:/]+|\/\/\[[^\]]+\]/, '//127.0.0.1');
    t.equal(
      (await post(idpLocal, { sub: 'ana', scopes: ['admin'] })).status,
      404,
      'the identity provider wins',
    );
  },
);

t.test('a role that answers the API serves its page with /common/ and the sign-in', async (t) => {
  const settings = env(t, { HOST: '0.0.0.0', DEV_SIGNIN: 'true' });
  const api = await startRole(leaderboard, 'api', { env: settings, handleSignals: false });
  t.teardown(() => api.close());
  const local = api.url.replace(/\/\/[^:/]+|\/\/\[[^\]]+\]/, '//127.0.0.1');
  for (const page of ['/leaderboard/', '/common/api.js', '/common/page.css', '/signin/']) {
    const response = await fetch(`${local}${page}`);
    t.equal(response.status, 200, page);
    t.equal(response.headers.get('content-security-policy'), PAGES_CSP, `${page} has the CSP`);
  }
  const minted = await post(local, { sub: 'ana', scopes: ['scores:read'] });
  t.equal(minted.status, 200, 'the sign-in mints');
  const { token } = (await minted.json()) as { token: string };
  const scores = await fetch(`${local}/v1/scores`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(scores.status, 200, "with the role's own secret");
  t.equal((await fetch(`${local}/mail/`)).status, 404, "another service's page is not here");
});

t.test('which hosts are loopback', (t) => {
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) t.ok(isLoopbackHost(host), host);
  for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.test', '127.example.test'])
    t.notOk(isLoopbackHost(host), host);
  t.end();
});
