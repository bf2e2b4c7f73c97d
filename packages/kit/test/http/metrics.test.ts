import t from 'tap';
import { Gauge } from 'prom-client';
import { testApp } from './helpers.ts';

t.test('/metrics exposes the request histogram by route pattern', async (t) => {
  const app = await testApp();
  app.get('/items/:id', async () => ({ ok: true }));
  await app.inject({ method: 'GET', url: '/items/1' });
  await app.inject({ method: 'GET', url: '/items/2' });
  await app.inject({ method: 'GET', url: '/healthz' });

  const res = await app.inject({ method: 'GET', url: '/metrics' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/plain/);
  t.match(
    res.body,
    /http_request_duration_seconds_count\{method="GET",route="\/items\/:id",status_code="200"\} 2/,
  );
  t.notMatch(res.body, /route="\/items\/1"/, 'the URL is never a label');
  t.notMatch(res.body, /route="\/healthz"/, 'probes are not measured');
  t.notMatch(res.body, /route="\/metrics"/);
  t.match(res.body, /process_cpu_user_seconds_total/, 'default process metrics');
});

t.test('services add metrics to the app registry; apps do not share one', async (t) => {
  const a = await testApp();
  const b = await testApp();
  const gauge = new Gauge({ name: 'leaderboard_players', help: 'players', registers: [a.metrics] });
  gauge.set(42);
  t.match((await a.inject({ method: 'GET', url: '/metrics' })).body, /leaderboard_players 42/);
  t.notMatch((await b.inject({ method: 'GET', url: '/metrics' })).body, /leaderboard_players/);
});

t.test('the request histogram has the buckets, sum and count of a Prometheus histogram', async (t) => {
  const app = await testApp();
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    return { ok: true };
  });
  app.get('/fast', async () => ({ ok: true }));
  await app.inject({ method: 'GET', url: '/slow' });
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/fast' });
  const body = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  const slow = 'method="GET",route="/slow",status_code="200"';
  t.match(body, /# TYPE http_request_duration_seconds histogram/);
  t.match(body, new RegExp(`http_request_duration_seconds_bucket\\{le="0.025",${slow}\\} 0`));
  t.match(body, new RegExp(`http_request_duration_seconds_bucket\\{le="0.05",${slow}\\} 1`));
  t.match(body, new RegExp(`http_request_duration_seconds_bucket\\{le="\\+Inf",${slow}\\} 1`));
  t.match(body, new RegExp(`http_request_duration_seconds_sum\\{${slow}\\} 0\\.0[3-9]`));
  t.match(
    body,
    /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/fast",status_code="200"\} 3/,
  );
  t.match(body, /http_request_duration_seconds_count\{method="GET",route="\/fast",status_code="200"\} 3/);
});
