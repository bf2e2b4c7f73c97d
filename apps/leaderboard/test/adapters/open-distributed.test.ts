import { createLogger, readConfig } from '@tessera/kit';
import t from 'tap';
import { distributedSettings } from '../../src/adapters/distributed-settings.ts';
import { openDistributedAdapters, type DistributedConfig } from '../../src/adapters/open-distributed.ts';
import { periodClock } from '../../src/core/period.ts';
import { archiveFinishedPeriods } from '../../src/rollover.ts';
import { LeaderboardService } from '../../src/service.ts';
import { distributedServers } from '../helpers/distributed.ts';

t.setTimeout(900_000);

const servers = await distributedServers(t, 'open_distributed');
const config: DistributedConfig = {
  ...readConfig(distributedSettings, servers.env),
  LEADERBOARD_TIE_BREAK: 'shared',
};

const logger = createLogger({ level: 'silent', name: 'test' });
const NOW = Date.UTC(2026, 10, 15);
const serviceOver = (ports: Awaited<ReturnType<typeof openDistributedAdapters>>) =>
  new LeaderboardService({ ports, now: () => NOW, periodOf: periodClock('UTC'), cacheTopList: false });

t.test('two processes over the same servers: a win through one is read through the other', async (t) => {
  const one = await openDistributedAdapters(config, logger);
  t.teardown(() => one.close());
  const two = await openDistributedAdapters({ ...config, LEADERBOARD_MIGRATE: false }, logger);
  t.teardown(() => two.close());
  t.equal(one.shared, true);
  const api1 = serviceOver(one);
  const api2 = serviceOver(two);

  const first = await api1.recordWin({ userId: 'alice', points: 3, matchId: 'm-1' });
  t.same(first, { period: '2026-11', standing: { userId: 'alice', score: 3, rank: 1 }, replayed: false });
  await api2.recordWin({ userId: 'bob', points: 5, matchId: 'm-2' });
  t.same((await api2.standing('alice', undefined, undefined)).standing, {
    userId: 'alice',
    score: 3,
    rank: 2,
  });

  const retry = await api2.recordWin({ userId: 'alice', points: 3, matchId: 'm-1' });
  t.same(retry, { period: '2026-11', standing: { userId: 'alice', score: 3, rank: 2 }, replayed: true });

  await api1.putProfile('bob', { userName: 'bob_the_great', displayName: 'Bob' });
  const top = await api2.top(undefined, 0, 10);
  t.same(
    top.entries.map((e) => [e.userName, e.score, e.rank]),
    [
      ['bob_the_great', 5, 1],
      ['alice', 3, 2],
    ],
    'names from Cassandra (through the cache), the id when there is no profile',
  );
  await api2.putProfile('bob', { userName: 'bob2', displayName: 'Bob' });
  t.equal(
    (await api1.top(undefined, 0, 1)).entries[0]?.userName,
    'bob2',
    'the cache was invalidated for both',
  );
  const hitsBefore = two.stats.profileCacheHits?.() ?? 0;
  await api2.top(undefined, 0, 10);
  t.equal(two.stats.profileCacheHits?.(), hitsBefore + 2, 'a second read is answered by the cache');
});

t.test('the ranking rebuilt from the log after Redis lost it', async (t) => {
  const ports = await openDistributedAdapters(config, logger);
  t.teardown(() => ports.close());
  const api = serviceOver(ports);
  await api.recordWin({ userId: 'carol', points: 4 });
  const before = await ports.rankings.top('2026-11', 0, 10);
  await ports.rankings.drop('2026-11'); // Redis restarted empty
  t.equal(await ports.rankings.appliedSeq('2026-11'), 0);
  for await (const batch of ports.winLog.read('2026-11', await ports.rankings.appliedSeq('2026-11'))) {
    await ports.rankings.applyBatch(batch);
  }
  t.same(await ports.rankings.top('2026-11', 0, 10), before, 'the same standings, every win once');
  t.equal(await ports.rankings.appliedSeq('2026-11'), await ports.winLog.lastSeq('2026-11'));
});

t.test('a finished month moves to the Cassandra archive and is still read', async (t) => {
  const ports = await openDistributedAdapters(config, logger);
  t.teardown(() => ports.close());
  const api = serviceOver(ports);
  const live = await api.top('2026-11', 0, 10);
  const archived = await archiveFinishedPeriods({
    rankings: ports.rankings,
    archive: ports.archive,
    currentPeriod: '2026-12',
    logger,
  });
  t.same(archived, ['2026-11']);
  t.same(await ports.rankings.periods(), [], 'the live ranking is dropped');
  t.equal(await ports.archive.isArchived('2026-11'), true);
  t.same(await api.top('2026-11', 0, 10), live, 'the same answer, from the archive');
  // bob 5, carol 4, alice 3: the window around alice, from the archive.
  t.same(
    (await api.standing('alice', '2026-11', 1)).window?.map((e) => e.userId),
    ['carol', 'alice'],
  );
});

t.test('half a configuration is refused before anything connects', async (t) => {
  await t.rejects(openDistributedAdapters({ ...config, CASSANDRA_URL: undefined }, logger), {
    name: 'ConfigError',
  });
});
