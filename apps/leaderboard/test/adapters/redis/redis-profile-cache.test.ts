import { randomBytes } from 'node:crypto';
import { backend, pollUntil } from '@tessera/testkit';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { RedisProfileCache } from '../../../src/adapters/redis/redis-profile-cache.ts';
import type { Profile, ProfileStore } from '../../../src/ports.ts';
import { profileStoreSuite } from '../../ports/profile-store.suite.ts';

t.setTimeout(600_000);

const server = await backend('redis');
t.teardown(() => server.stop());
const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
t.teardown(() => redis.quit());

/** The store behind the cache, counting its reads; `hold` pauses the next read until released. */
class MemoryProfiles implements ProfileStore {
  readonly rows = new Map<string, Profile>();
  reads = 0;
  hold: Promise<void> | undefined;

  async get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>> {
    this.reads++;
    const snapshot = new Map<string, Profile>();
    for (const id of userIds) {
      const profile = this.rows.get(id);
      if (profile !== undefined) snapshot.set(id, profile);
    }
    if (this.hold !== undefined) await this.hold;
    return snapshot;
  }

  put(userId: string, profile: Profile): Promise<void> {
    this.rows.set(userId, profile);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function namespace(t: Test): string {
  const keyPrefix = `t${randomBytes(4).toString('hex')}:lb:`;
  t.teardown(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  return keyPrefix;
}

t.test('the ProfileStore port suite, through the Redis cache', async (t) => {
  profileStoreSuite(
    t,
    async (t) =>
      new RedisProfileCache(new MemoryProfiles(), redis, { keyPrefix: namespace(t), ttlMs: 60_000 }),
  );
});

t.test('a cached profile is read without the store, misses included', async (t) => {
  const inner = new MemoryProfiles();
  const cache = new RedisProfileCache(inner, redis, { keyPrefix: namespace(t), ttlMs: 60_000 });
  await inner.put('a', { userName: 'a', displayName: 'A' });
  await cache.get(['a', 'nobody']);
  t.equal(inner.reads, 1);
  const again = await cache.get(['a', 'nobody']);
  t.equal(inner.reads, 1, 'both answered by the cache');
  t.same([...again.keys()], ['a']);
  t.equal(cache.hits, 2);
});

t.test('an update in one process is seen at once by another', async (t) => {
  const keyPrefix = namespace(t);
  const inner = new MemoryProfiles();
  const one = new RedisProfileCache(inner, redis, { keyPrefix, ttlMs: 60_000 });
  const two = new RedisProfileCache(inner, redis, { keyPrefix, ttlMs: 60_000 });
  await one.put('a', { userName: 'old', displayName: 'Old' });
  t.equal((await two.get(['a'])).get('a')?.userName, 'old');
  await one.put('a', { userName: 'new', displayName: 'New' });
  t.equal((await two.get(['a'])).get('a')?.userName, 'new', 'invalidated for every process');
});

t.test('a read that raced an update cannot put the old profile back', async (t) => {
  const keyPrefix = namespace(t);
  const inner = new MemoryProfiles();
  const reader = new RedisProfileCache(inner, redis, { keyPrefix, ttlMs: 60_000 });
  const writer = new RedisProfileCache(inner, redis, { keyPrefix, ttlMs: 60_000 });
  await inner.put('a', { userName: 'old', displayName: 'Old' });
  let release = () => {};
  inner.hold = new Promise((resolve) => (release = resolve));
  const slowRead = reader.get(['a']); // reads "old" from the store, then waits
  await pollUntil('the read to reach the store', () => Promise.resolve(inner.reads === 1), {
    ms: 10_000,
    intervalMs: 5,
  });
  inner.hold = undefined;
  await writer.put('a', { userName: 'new', displayName: 'New' });
  release();
  t.equal((await slowRead).get('a')?.userName, 'old', 'the racing read answers what it read');
  t.equal((await reader.get(['a'])).get('a')?.userName, 'new', 'but did not cache it');
});

t.test('entries expire', async (t) => {
  const inner = new MemoryProfiles();
  const cache = new RedisProfileCache(inner, redis, { keyPrefix: namespace(t), ttlMs: 100 });
  await cache.get(['a']);
  await new Promise((resolve) => setTimeout(resolve, 250));
  await cache.get(['a']);
  t.equal(inner.reads, 2, 'read from the store again');
});
