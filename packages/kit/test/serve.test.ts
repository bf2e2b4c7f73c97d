import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mintToken } from '../src/auth.ts';
import { ConfigError } from '../src/config.ts';
import { serve } from '../src/serve.ts';

t.test('serve reads the environment, mounts the service and listens', async (t) => {
  const dataDir = t.testdir();
  const seen: { url?: string; secret?: string } = {};
  let closed = false;
  const running = await serve({
    name: 'svc',
    version: '9.9.9',
    env: { PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir },
    handleSignals: false,
    mount: (app, { platform }) => {
      app.get('/v1/who', { config: { auth: { scope: 'mail' } } }, (request) => ({
        sub: request.principal?.sub,
        dataDir: platform.DATA_DIR,
      }));
      app.addHook('onClose', async () => {
        closed = true;
      });
    },
    banner: (url, { secret }) => {
      seen.url = url;
      seen.secret = secret;
      return [`up at ${url}`];
    },
  });
  t.teardown(() => running.close());
  t.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(seen.url, running.url);
  t.ok(existsSync(join(dataDir, 'auth', 'jwt-secret')), 'a secret was created under DATA_DIR');

  const token = await mintToken({ secret: seen.secret ?? '', sub: 'dora', scopes: ['mail'] });
  const res = await fetch(`${running.url}/v1/who`, { headers: { authorization: `Bearer ${token}` } });
  t.same(await res.json(), { sub: 'dora', dataDir });
  const unauth = await fetch(`${running.url}/v1/who`);
  t.equal(unauth.status, 401);

  await running.close();
  await running.close();
  t.ok(closed, 'the mounted service was closed with the app');
});

t.test('bad configuration fails before anything starts', async (t) => {
  await t.rejects(
    serve({ name: 'svc', version: '1', env: { PORT: 'x' }, handleSignals: false, mount: () => {} }),
    ConfigError,
  );
});

t.test('a failing mount closes what was opened', async (t) => {
  await t.rejects(
    serve({
      name: 'svc',
      version: '1',
      env: { PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: t.testdir() },
      handleSignals: false,
      mount: () => {
        throw new Error('mount failed');
      },
    }),
    /mount failed/,
  );
});
