// The `archiver` role as its own process on the shared stores (JetStream, Redis, Cassandra): it
// answers its probes but no API, and archives a finished month that an api process recorded.
import { createLogger, readConfig } from '@tessera/kit';
import { launchTessera, tempDir } from '@tessera/testkit';
import t from 'tap';
import { openDistributedAdapters } from '../../src/adapters/open-distributed.ts';
import { leaderboardSettings } from '../../src/config.ts';
import { distributedServers } from '../helpers/distributed.ts';

t.setTimeout(900_000);

const { env } = await distributedServers(t, 'archiver');
const config = readConfig(leaderboardSettings, env);

t.test('tessera run leaderboard archiver archives a finished month from the shared stores', async (t) => {
  // What an api process left: two wins of a month long finished, recorded and applied.
  const ports = await openDistributedAdapters(config, createLogger({ level: 'silent', name: 'test' }));
  t.teardown(() => ports.close());
  for (const [userId, points] of [
    ['ada', 3],
    ['bob', 5],
  ] as const) {
    const { win } = await ports.winLog.append({
      period: '2020-01',
      userId,
      points,
      at: Date.UTC(2020, 0, 9),
    });
    await ports.rankings.applyWin(win);
  }
  t.notOk(await ports.archive.isArchived('2020-01'));

  const archiver = await launchTessera(['run', 'leaderboard', 'archiver'], {
    env: { ...env, DATA_DIR: tempDir(t), LEADERBOARD_ARCHIVE_INTERVAL_MS: '500' },
  });
  t.teardown(async () => {
    await archiver.stop();
  });
  t.equal((await fetch(`${archiver.url}/healthz`)).status, 200, 'its own probes');
  t.equal((await fetch(`${archiver.url}/v1/scores`)).status, 404, 'but no API');

  // It archived at start, before it listened.
  t.ok(await ports.archive.isArchived('2020-01'), 'the month is archived');
  t.same(await ports.archive.top('2020-01', 0, 10), [
    { userId: 'bob', score: 5, rank: 1 },
    { userId: 'ada', score: 3, rank: 2 },
  ]);
  t.same(await ports.rankings.periods(), [], 'and its live ranking dropped');
  t.equal((await fetch(`${archiver.url}/readyz`)).status, 200);
});
