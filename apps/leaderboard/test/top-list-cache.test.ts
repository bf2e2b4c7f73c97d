import fc from 'fast-check';
import t from 'tap';
import { MemoryRankingStore } from '../src/adapters/embedded/memory-ranking-store.ts';
import type { Period } from '../src/core/period.ts';
import type { ArchiveStore, Profile, ProfileStore } from '../src/ports.ts';
import { LeaderboardService } from '../src/service.ts';
import { TopListCache } from '../src/top-list-cache.ts';
import { ListWinLog } from './helpers/list-win-log.ts';

const PERIOD = '2026-11';

const noArchive: ArchiveStore = {
  isArchived: () => Promise.resolve(false),
  write: () => Promise.resolve(0),
  standing: () => Promise.resolve(undefined),
  top: () => Promise.resolve([]),
  around: () => Promise.resolve(undefined),
  periods: () => Promise.resolve([]),
  delete: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

class MapProfiles implements ProfileStore {
  readonly profiles = new Map<string, Profile>();
  get(ids: readonly string[]) {
    return Promise.resolve(
      new Map(ids.flatMap((id) => (this.profiles.has(id) ? [[id, this.profiles.get(id)!]] : []))),
    );
  }
  put(id: string, profile: Profile) {
    this.profiles.set(id, profile);
    return Promise.resolve();
  }
  close = () => Promise.resolve();
}

t.test('a win invalidates the cached list only when the rank it reaches is within it', async (t) => {
  const cache = new TopListCache<string>();
  cache.set(PERIOD, 3, ['a', 'b', 'c'], cache.version);
  cache.changed(PERIOD, 4);
  t.same(cache.get(PERIOD, 3), ['a', 'b', 'c'], 'rank 4 leaves a top 3 alone');
  t.equal(cache.get(PERIOD, 10), undefined, 'another limit is another list');
  cache.changed(PERIOD, 3);
  t.equal(cache.get(PERIOD, 3), undefined, 'rank 3 changes it');
  cache.set(PERIOD, 3, ['a'], cache.version);
  cache.changed(PERIOD, 9);
  t.equal(cache.get(PERIOD, 3), undefined, 'a short list holds everyone: any win may join it');
  const before = cache.version;
  cache.clear();
  cache.set(PERIOD, 3, ['stale'], before);
  t.equal(cache.get(PERIOD, 3), undefined, 'a list read before an invalidation is not cached');
});

for (const tieBreak of ['shared', 'earliest'] as const) {
  t.test(`the cached top list always equals a fresh read (${tieBreak} ranks)`, async (t) => {
    type Op =
      | { kind: 'win'; user: number; points: number }
      | { kind: 'name'; user: number }
      | { kind: 'read'; limit: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('win' as const),
        user: fc.nat(25),
        points: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({ kind: fc.constant('name' as const), user: fc.nat(25) }),
      fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 12 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 120 }), async (ops) => {
        const ports = {
          winLog: new ListWinLog(PERIOD),
          rankings: new MemoryRankingStore(tieBreak),
          archive: noArchive,
          profiles: new MapProfiles(),
        };
        const clock = { now: () => Date.UTC(2026, 10, 15), periodOf: (): Period => PERIOD };
        const cached = new LeaderboardService({ ports, ...clock, cacheTopList: true });
        const fresh = new LeaderboardService({ ports, ...clock, cacheTopList: false });
        for (const o of ops) {
          if (o.kind === 'win') await cached.recordWin({ userId: `u${o.user}`, points: o.points });
          else if (o.kind === 'name')
            await cached.putProfile(`u${o.user}`, { userName: `n${ops.length}`, displayName: 'x' });
          else {
            const got = await cached.top(undefined, 0, o.limit);
            const want = await fresh.top(undefined, 0, o.limit);
            if (JSON.stringify(got) !== JSON.stringify(want)) {
              throw new Error(
                `top ${o.limit} from the cache ${JSON.stringify(got.entries)} != fresh ${JSON.stringify(want.entries)}`,
              );
            }
          }
        }
      }),
      { numRuns: 300, seed: 20261123 },
    );
    t.pass('300 random histories');
  });
}

t.test('a win that lands while a top list is being read is not hidden by caching that read', async (t) => {
  let release: () => void = () => {};
  class GatedProfiles extends MapProfiles {
    gated = false;
    override async get(ids: readonly string[]) {
      if (this.gated) await new Promise<void>((resolve) => (release = resolve));
      return super.get(ids);
    }
  }
  const profiles = new GatedProfiles();
  const ports = {
    winLog: new ListWinLog(PERIOD),
    rankings: new MemoryRankingStore('shared'),
    archive: noArchive,
    profiles,
  };
  const service = new LeaderboardService({
    ports,
    now: () => Date.UTC(2026, 10, 15),
    periodOf: () => PERIOD,
    cacheTopList: true,
  });
  await service.recordWin({ userId: 'a', points: 1 });
  profiles.gated = true;
  const reading = service.top(undefined, 0, 10);
  await new Promise((resolve) => setImmediate(resolve));
  profiles.gated = false;
  await service.recordWin({ userId: 'b', points: 5 });
  release();
  t.same(
    (await reading).entries.map((e) => e.userId),
    ['a'],
    'the read that began before the win answers what it read',
  );
  t.same(
    (await service.top(undefined, 0, 10)).entries.map((e) => e.userId),
    ['b', 'a'],
    'the next read sees the win',
  );
});

t.test(
  "a player's current standing: at once with the cache's stores, asked of the store without",
  async (t) => {
    const ports = {
      winLog: new ListWinLog(PERIOD),
      rankings: new MemoryRankingStore('shared'),
      archive: noArchive,
      profiles: new MapProfiles(),
    };
    const clock = { now: () => Date.UTC(2026, 10, 15), periodOf: (): Period => PERIOD };
    const cached = new LeaderboardService({ ports, ...clock, cacheTopList: true });
    // Stores other processes also write: the period's reader is looked up, as `standing` does.
    const shared = new LeaderboardService({ ports, ...clock, cacheTopList: false });
    await cached.recordWin({ userId: 'a', points: 2 });
    await cached.recordWin({ userId: 'b', points: 5 });
    const want = { userId: 'a', score: 2, rank: 2 };
    t.same(cached.currentStanding('a'), want, 'at once');
    const later = shared.currentStanding('a');
    t.ok(later instanceof Promise, 'a promise');
    t.same(await later, want);
    t.same((await shared.standing('a', undefined, undefined)).standing, want, 'what the full read says');
    t.equal(cached.currentStanding('nobody'), undefined, 'a player without a score, at once');
    await t.rejects(
      Promise.resolve(shared.currentStanding('nobody')),
      { code: 'LB_USER_NOT_RANKED' },
      'later: its 404',
    );
  },
);
