import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mintToken } from '../src/auth.ts';
import { ConfigError, setting } from '../src/config.ts';
import { defineErrors } from '../src/errors.ts';
import { serve } from '../src/serve.ts';
import { defineService, type ServiceContext } from '../src/service-descriptor.ts';

const demoSettings = {
  DEMO_GREETING: setting.string({ default: 'hello' }),
  DEMO_TIMES: setting.int({ default: 1, min: 1 }),
};

interface Demo {
  readonly greeting: string;
  close(): Promise<void>;
}

/** A small service with two roles, recording what happens to it. */
function demoService(events: string[], options: { failOpen?: boolean; pages?: string } = {}) {
  return defineService<typeof demoSettings, Demo>({
    name: 'demo',
    ...(options.pages === undefined ? {} : { pages: { prefix: '/demo/', root: options.pages } }),
    description: 'a service for the tests',
    settings: demoSettings,
    check: (config) => (config.DEMO_GREETING === 'boom' ? ['DEMO_GREETING must not be "boom"'] : []),
    errors: defineErrors({ DEMO_NOPE: { status: 400, title: 'Nope' } }),
    roles: {
      api: { description: 'answers', servesApi: true },
      worker: {
        description: 'works',
        servesApi: false,
        start: (_instance, context: ServiceContext) => {
          events.push(`worker started for ${context.roles.join('+')}`);
          return Promise.resolve(async () => {
            events.push('worker stopped');
          });
        },
      },
    },
    open: async (config, context) => {
      if (options.failOpen === true) throw new Error('open failed');
      events.push(`opened in ${context.platform.DATA_DIR}`);
      return {
        greeting: config.DEMO_GREETING,
        close: async () => {
          events.push('closed');
        },
      };
    },
    routes: async (app, { instance }) => {
      app.get('/v1/who', { config: { auth: { scope: 'mail' } } }, (request) => ({
        sub: request.principal?.sub,
        greeting: instance.greeting,
      }));
    },
    readiness: () => ({ store: () => true }),
  });
}

t.test('serve reads the environment, starts the service with every role and listens', async (t) => {
  const dataDir = t.testdir();
  const events: string[] = [];
  const seen: { url?: string; secret?: string } = {};
  const running = await serve({
    name: 'svc',
    version: '9.9.9',
    env: { PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DEMO_GREETING: 'hi' },
    handleSignals: false,
    services: [{ service: demoService(events) }],
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
  t.same(events, [`opened in ${dataDir}`, 'worker started for api+worker']);

  const token = await mintToken({ secret: seen.secret ?? '', sub: 'dora', scopes: ['mail'] });
  const res = await fetch(`${running.url}/v1/who`, { headers: { authorization: `Bearer ${token}` } });
  t.same(await res.json(), { sub: 'dora', greeting: 'hi' });
  t.equal((await fetch(`${running.url}/v1/who`)).status, 401);
  const ready = await fetch(`${running.url}/readyz`);
  t.equal(ready.status, 200);

  await running.close();
  await running.close();
  t.same(events.slice(2), ['worker stopped', 'closed'], 'roles stop before the stores close, once');
});

t.test('a role that does not serve the API runs with probes only', async (t) => {
  const events: string[] = [];
  const running = await serve({
    name: 'svc',
    version: '1',
    env: { PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: t.testdir() },
    handleSignals: false,
    services: [{ service: demoService(events), roles: ['worker'] }],
  });
  t.teardown(() => running.close());
  t.equal((await fetch(`${running.url}/v1/who`)).status, 404, 'no API routes');
  t.equal((await fetch(`${running.url}/healthz`)).status, 200);
  t.equal((await fetch(`${running.url}/readyz`)).status, 200);
  t.same(events.slice(1), ['worker started for worker']);
});

t.test("one message names every bad variable: the platform's and the services'", async (t) => {
  const error = await serve({
    name: 'svc',
    version: '1',
    env: { PORT: 'x', DEMO_TIMES: '0', DATA_DIR: t.testdir() },
    handleSignals: false,
    services: [{ service: demoService([]), roles: ['api', 'janitor'] }],
  }).catch((e: unknown) => e);
  t.type(error, ConfigError);
  const message = (error as Error).message;
  t.match(message, /PORT/);
  t.match(message, /DEMO_TIMES/);
  t.match(message, /demo has no role "janitor" \(its roles: api, worker\)/);
});

t.test('checks across settings run after each setting parsed', async (t) => {
  await t.rejects(
    serve({
      name: 'svc',
      version: '1',
      env: { DEMO_GREETING: 'boom', DATA_DIR: t.testdir() },
      handleSignals: false,
      services: [{ service: demoService([]) }],
    }),
    { name: 'ConfigError', message: /DEMO_GREETING must not be "boom"/ },
  );
});

t.test('a service that fails to open stops start-up and closes what was opened', async (t) => {
  await t.rejects(
    serve({
      name: 'svc',
      version: '1',
      env: { PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: t.testdir() },
      handleSignals: false,
      services: [{ service: demoService([], { failOpen: true }) }],
    }),
    /open failed/,
  );
});

t.test(
  "a service's pages are served where a role of it answers the API, beside the process's own",
  async (t) => {
    // One t.testdir per test: the pages, the process's own page and each process's data beside.
    const dir = t.testdir({
      pages: { 'index.html': '<!doctype html><title>demo</title>' },
      own: { 'index.html': '<!doctype html><title>sign in</title>' },
      data: { api: {}, worker: {} },
    });
    const pages = join(dir, 'pages');
    const own = join(dir, 'own');
    const start = (roles: string[]) =>
      serve({
        name: 'svc',
        version: '1',
        env: { PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: join(dir, 'data', roles.join('+')) },
        handleSignals: false,
        services: [{ service: demoService([], { pages }), roles }],
        pages: [{ prefix: '/own/', root: own }],
        routes: (app, { secret }) => {
          app.get('/own-route', () => ({ hasSecret: secret !== undefined }));
        },
      });
    const api = await start(['api']);
    t.teardown(() => api.close());
    const page = await fetch(`${api.url}/demo/`);
    t.equal(page.status, 200);
    t.match(page.headers.get('content-security-policy'), /default-src 'self'/);
    t.match(await page.text(), /<title>demo/);
    t.match(await (await fetch(`${api.url}/own/`)).text(), /<title>sign in/);
    t.same(await (await fetch(`${api.url}/own-route`)).json(), { hasSecret: true });

    const worker = await start(['worker']);
    t.teardown(() => worker.close());
    t.equal((await fetch(`${worker.url}/demo/`)).status, 404, 'no pages where the API is not served');
    t.equal((await fetch(`${worker.url}/own/`)).status, 200);
  },
);
