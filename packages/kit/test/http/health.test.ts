import t from 'tap';
import { testApp } from './helpers.ts';
import type { Problem } from './helpers.ts';

t.test('/healthz answers ok', async (t) => {
  const app = await testApp();
  const res = await app.inject({ method: 'GET', url: '/healthz' });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { status: 'ok' });
});

t.test('/readyz is ready with no checks', async (t) => {
  const app = await testApp();
  t.same((await app.inject({ method: 'GET', url: '/readyz' })).json(), { status: 'ready' });
});

t.test('/readyz follows the registered checks', async (t) => {
  const app = await testApp();
  let dbUp = false;
  app.addReadinessCheck('database', () => dbUp);
  app.addReadinessCheck('bus', async () => true);
  app.addReadinessCheck('cache', () => {
    throw new Error('cache exploded');
  });

  const down = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(down.statusCode, 503);
  t.match(down.headers['content-type'], /^application\/problem\+json/);
  t.match(down.json<Problem>(), {
    status: 503,
    code: 'KIT_NOT_READY',
    detail: 'not ready: database, cache',
    failing: ['database', 'cache'],
  });

  dbUp = true;
  app.addReadinessCheck('cache', () => true);
  const up = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(up.statusCode, 200);
  t.same(up.json(), { status: 'ready' });
});

t.test('/readyz stays ready but names what a degraded check says is down', async (t) => {
  const app = await testApp();
  let cassandra: true | { degraded: string } = { degraded: 'profiles and archives unavailable' };
  app.addReadinessCheck('stores', () => true);
  app.addReadinessCheck('cassandra', () => cassandra);
  const degraded = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(degraded.statusCode, 200);
  t.same(degraded.json(), {
    status: 'degraded',
    degraded: { cassandra: 'profiles and archives unavailable' },
  });
  cassandra = true;
  t.same((await app.inject({ method: 'GET', url: '/readyz' })).json(), { status: 'ready' });
});
