import t from 'tap';
import { guardOutages } from '../../src/adapters/outage-guard.ts';
import { isNatsOutage, isRedisOutage } from '../../src/adapters/outages.ts';
import { DependencyHealth } from '../../src/dependency-health.ts';

class Outage extends Error {
  override name = 'TimeoutError';
}

t.test('an outage becomes a coded 503 and marks the dependency down; an answer marks it up', async (t) => {
  const health = new DependencyHealth();
  let fail: Error | undefined;
  const store = guardOutages(
    {
      async get(): Promise<string> {
        if (fail !== undefined) throw fail;
        return 'answer';
      },
    },
    { dependency: 'nats', health, isOutage: isNatsOutage, retryAfterSeconds: 2 },
  );
  fail = new Error('wrapped', { cause: new Outage('timed out') });
  t.match(await store.get().catch((error: unknown) => error), {
    code: 'LB_STORE_UNAVAILABLE',
    status: 503,
    headers: { 'Retry-After': '2' },
  });
  t.match(health.describe(), /^nats unavailable \(wrapped\)/);
  fail = new Error('a bad request');
  await t.rejects(store.get(), { message: 'a bad request' }, 'other errors pass as they are');
  fail = undefined;
  t.equal(await store.get(), 'answer');
  t.equal(health.describe(), undefined);
});

t.test('what counts as a Redis outage', (t) => {
  t.ok(isRedisOutage(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })));
  t.ok(isRedisOutage(new Error('Connection is closed.')));
  t.notOk(isRedisOutage(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')));
  t.end();
});
