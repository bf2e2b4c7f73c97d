import t from 'tap';
import { testApp, token } from './helpers.ts';
import type { Problem } from './helpers.ts';

async function limitedApp(rateLimitEnabled = true) {
  const app = await testApp({ rateLimitEnabled });
  app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: 60_000 } } }, async () => ({ ok: true }));
  app.get(
    '/limited-authed',
    { config: { auth: { scope: 'trade' }, rateLimit: { max: 1, timeWindow: 60_000 } } },
    async (request) => ({ sub: request.principal?.sub }),
  );
  app.get('/free', async () => ({ ok: true }));
  return app;
}

t.test('limited routes carry the X-Rate-Limit-* headers with reset as a timestamp', async (t) => {
  const app = await limitedApp();
  const before = Math.floor(Date.now() / 1000);
  const first = await app.inject({ method: 'GET', url: '/limited' });
  t.equal(first.statusCode, 200);
  t.equal(first.headers['x-rate-limit-limit'], '2');
  t.equal(first.headers['x-rate-limit-remaining'], '1');
  const reset = Number(first.headers['x-rate-limit-reset']);
  t.ok(reset >= before + 59 && reset <= before + 61, `reset ${reset} is about a minute from ${before}`);
  t.notOk(first.headers['x-ratelimit-limit'], 'the plugin names are gone');
  t.notOk(first.headers['x-ratelimit-reset']);

  const second = await app.inject({ method: 'GET', url: '/limited' });
  t.equal(second.headers['x-rate-limit-remaining'], '0');

  const third = await app.inject({ method: 'GET', url: '/limited' });
  t.equal(third.statusCode, 429);
  t.match(third.headers['content-type'], /^application\/problem\+json/);
  t.match(third.json<Problem>(), { status: 429, code: 'KIT_RATE_LIMITED', title: 'Too many requests' });
  const retryAfter = Number(third.headers['retry-after']);
  t.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter} is in seconds`);
  t.equal(third.headers['x-rate-limit-limit'], '2');
  t.equal(third.headers['x-rate-limit-remaining'], '0');
  t.ok(Number(third.headers['x-rate-limit-reset']) >= before + 59);
});

t.test('routes without a limit have no headers', async (t) => {
  const app = await limitedApp();
  const res = await app.inject({ method: 'GET', url: '/free' });
  t.notOk(res.headers['x-rate-limit-limit']);
});

t.test('authenticated callers are limited per subject, not per IP', async (t) => {
  const app = await limitedApp();
  const alice = { authorization: `Bearer ${await token(['trade'], 'alice')}` };
  const bob = { authorization: `Bearer ${await token(['trade'], 'bob')}` };
  t.equal((await app.inject({ method: 'GET', url: '/limited-authed', headers: alice })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: '/limited-authed', headers: alice })).statusCode, 429);
  t.equal((await app.inject({ method: 'GET', url: '/limited-authed', headers: bob })).statusCode, 200);
});

t.test('rateLimitEnabled: false registers no limits', async (t) => {
  const app = await limitedApp(false);
  for (let i = 0; i < 5; i++) {
    const res = await app.inject({ method: 'GET', url: '/limited' });
    t.equal(res.statusCode, 200);
    t.notOk(res.headers['x-rate-limit-limit']);
  }
});
