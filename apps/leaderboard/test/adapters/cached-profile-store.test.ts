import t from 'tap';
import { CachedProfileStore } from '../../src/adapters/cache/cached-profile-store.ts';
import type { Profile, ProfileStore } from '../../src/ports.ts';

class SlowStore implements ProfileStore {
  readonly profiles = new Map<string, Profile>();
  reads = 0;
  gate: Promise<void> = Promise.resolve();
  async get(ids: readonly string[]) {
    this.reads++;
    const snapshot = new Map(
      ids.flatMap((id) => (this.profiles.has(id) ? [[id, this.profiles.get(id)!]] : [])),
    );
    await this.gate;
    return snapshot;
  }
  async put(id: string, profile: Profile) {
    this.profiles.set(id, profile);
  }
  async close() {}
}

const ace: Profile = { userName: 'ace', displayName: 'Ace' };

t.test('hits, misses (a missing profile is cached too) and invalidation on put', async (t) => {
  const inner = new SlowStore();
  inner.profiles.set('u1', ace);
  const cache = new CachedProfileStore(inner, 10);
  t.same([...(await cache.get(['u1', 'u2']))], [['u1', ace]]);
  t.same([...(await cache.get(['u1', 'u2']))], [['u1', ace]]);
  t.equal(inner.reads, 1);
  await cache.put('u2', { userName: 'two', displayName: 'Two' });
  t.equal((await cache.get(['u2'])).get('u2')?.userName, 'two');
  t.equal(inner.reads, 2);
});

t.test('holds at most `capacity` profiles, dropping the least recently used', async (t) => {
  const inner = new SlowStore();
  const cache = new CachedProfileStore(inner, 2);
  await cache.get(['a']);
  await cache.get(['b']);
  await cache.get(['a']);
  await cache.get(['c']);
  t.equal(cache.stats.size, 2);
  const before = inner.reads;
  await cache.get(['a']);
  t.equal(inner.reads, before, 'a was kept');
  await cache.get(['b']);
  t.equal(inner.reads, before + 1, 'b was dropped');
});

t.test('a read that raced an update does not cache the old profile', async (t) => {
  const inner = new SlowStore();
  inner.profiles.set('u1', ace);
  const cache = new CachedProfileStore(inner, 10);
  let open!: () => void;
  inner.gate = new Promise((resolve) => (open = resolve));
  const slowRead = cache.get(['u1']);
  await cache.put('u1', { userName: 'renamed', displayName: 'Ace' });
  open();
  await slowRead;
  inner.gate = Promise.resolve();
  t.equal((await cache.get(['u1'])).get('u1')?.userName, 'renamed');
});
