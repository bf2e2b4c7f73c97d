import { randomBytes } from 'node:crypto';
import { backend } from '@tessera/testkit';
import { Redis } from 'ioredis';
import t from 'tap';
import { LuaScript } from '../../../src/adapters/redis/lua-script.ts';

t.setTimeout(600_000);

const server = await backend('redis');
t.teardown(() => server.stop());
const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
t.teardown(() => redis.quit());

t.test('a script Redis does not know (after a restart) is loaded by the call itself', async (t) => {
  // A source of its own, never loaded: what EVALSHA meets after a restart, without flushing the
  // scripts of a shared server.
  const script = new LuaScript(`return ARGV[1] .. ' ${randomBytes(4).toString('hex')}'`);
  t.match(await script.run(redis, [], ['loaded']), /^loaded /);
  t.match(await script.run(redis, [], ['cached']), /^cached /, 'then run by its SHA');
});

t.test('a failing script fails the call', async (t) => {
  await t.rejects(
    new LuaScript("return redis.error_reply('LB_TEST broken')").run(redis, [], []),
    /LB_TEST broken/,
  );
});
