import t from 'tap';
import { testApp } from './helpers.ts';

interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, { security?: unknown; requestBody?: unknown }>>;
  components: { securitySchemes: Record<string, unknown> };
}

t.test('/docs/openapi.json describes the routes, their security and nothing operational', async (t) => {
  const app = await testApp();
  await app.register(async (scoped) => {
    scoped.post(
      '/v1/scores',
      {
        config: { auth: { scope: 'scores:write' } },
        schema: {
          body: { type: 'object', properties: { points: { type: 'integer' } }, additionalProperties: false },
        },
      },
      async () => ({ ok: true }),
    );
    scoped.get('/v1/leaderboard', async () => ({ data: [] }));
  });

  const res = await app.inject({ method: 'GET', url: '/docs/openapi.json' });
  t.equal(res.statusCode, 200);
  const doc = res.json<OpenApiDoc>();
  t.match(doc.openapi, /^3\./);
  t.same(doc.info, { title: 'kit-test', version: '1.2.3', description: 'kit test app' });
  t.same(doc.components.securitySchemes['bearerAuth'], {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  t.same(doc.paths['/v1/scores']?.['post']?.security, [{ bearerAuth: ['scores:write'] }]);
  t.ok(doc.paths['/v1/scores']?.['post']?.requestBody);
  t.notOk(doc.paths['/v1/leaderboard']?.['get']?.security, 'public routes have no security');
  for (const hidden of ['/metrics', '/healthz', '/readyz', '/docs/openapi.json']) {
    t.notOk(doc.paths[hidden], `${hidden} is not documented`);
  }
});

t.test('/docs serves a readable reference of the same document, from the package (offline)', async (t) => {
  const app = await testApp();
  app.get('/v1/things', async () => ({ data: [] }));
  const page = await app.inject({ method: 'GET', url: '/docs/' });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.match(page.body, /swagger-ui/i);
  const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  t.ok(sources.length > 0);
  for (const source of sources) {
    t.notMatch(source, /^(https?:)?\/\//, `${source} is served locally, not from a CDN`);
    const asset = await app.inject({ method: 'GET', url: new URL(source, 'http://x/docs/').pathname });
    t.equal(asset.statusCode, 200, `${source} is served`);
  }
  const init = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
  t.match(init.body, /\.\/json/, 'the page loads the document served beside it');
  const spec = await app.inject({ method: 'GET', url: '/docs/json' });
  t.same(
    spec.json(),
    (await app.inject({ method: 'GET', url: '/docs/openapi.json' })).json(),
    'the same document',
  );

  const doc = spec.json<OpenApiDoc>();
  t.same(Object.keys(doc.paths), ['/v1/things'], 'the reference documents no route of its own');
  const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  t.notMatch(metrics, /route="\/docs/, 'the reference is not measured');
});

t.test('authenticated routes document 401, 403 and the 429 of the failed-authentication limit', async (t) => {
  const responsesOf = async (authFailureLimitPerMinute: number) => {
    const app = await testApp({ authFailureLimitPerMinute });
    app.get('/v1/mine', { config: { auth: { scope: 'trade' } }, schema: {} }, async () => ({ ok: true }));
    const doc = (await app.inject({ method: 'GET', url: '/docs/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    return Object.keys(doc.paths['/v1/mine']?.['get']?.responses ?? {}).sort();
  };
  t.same(await responsesOf(600), ['401', '403', '414', '429', '431']);
  t.same(await responsesOf(0), ['401', '403', '414', '431'], 'every route may meet the edge limits');
});
