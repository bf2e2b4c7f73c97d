// Cassandra down, from the start: an api and an archiver process start anyway; score writes
// (and their retries) and live reads keep working; names fall back to the ids; a profile is a
// coded 503; /readyz is ready but names Cassandra; a finished month waits. Then Cassandra starts
// (a server of this file's own, on free ports): the month is archived, readiness is plain again,
// profiles work.
import { createLogger, readConfig } from '@tessera/kit';
import { backend, freePort, tempDir } from '@tessera/testkit';
import t from 'tap';
import { openDistributedAdapters } from '../../src/adapters/open-distributed.ts';
import { migrateAdapters } from '../../src/adapters/select.ts';
import { leaderboardSettings } from '../../src/config.ts';
import { SECRET } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { startApiProcess } from '../helpers/process.ts';
import { launchTessera } from '@tessera/testkit';

t.setTimeout(1_200_000);

const shared = await distributedServers(t, 'cassandra_down');
const [cqlPort, storagePort] = [await freePort(), await freePort()];
const env = {
  ...shared.env,
  CASSANDRA_URL: `cassandra://127.0.0.1:${cqlPort}/datacenter1`,
  LEADERBOARD_MIGRATE: 'false',
  AUTH_JWT_SECRET: SECRET,
};
const config = readConfig(leaderboardSettings, env);
const headersFor = authHeaders(SECRET);

async function call(url: string, init: { method?: string; scopes?: string[]; body?: unknown } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(await headersFor(init.scopes ?? ['scores:read'])),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests assert on the shape
  const body: any = text ? JSON.parse(text) : {};
  return { status: response.status, headers: response.headers, body };
}

/** Polls `check` every 500 ms until it holds, at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

// What an api left before: a month long finished, recorded and applied, not yet archived.
const ports = await openDistributedAdapters(config, createLogger({ level: 'silent', name: 'test' }));
t.teardown(() => ports.close());
const { win } = await ports.winLog.append({
  period: '2020-01',
  userId: 'old',
  points: 2,
  at: Date.UTC(2020, 0, 9),
});
await ports.rankings.applyWin(win);

const api = await startApiProcess({ ...env, DATA_DIR: tempDir(t) });
t.teardown(() => api.stop());
const archiver = await launchTessera(['run', 'leaderboard', 'archiver'], {
  env: { ...env, DATA_DIR: tempDir(t), LEADERBOARD_ARCHIVE_INTERVAL_MS: '500' },
});
t.teardown(() => archiver.stop());

t.test('while Cassandra is down (it never was up)', async (t) => {
  const post = {
    method: 'POST',
    scopes: ['scores:write'],
    body: { user_id: 'ada', points: 5, match_id: 'cd-1' },
  };
  const first = await call(`${api.url}/v1/scores`, post);
  t.equal(first.status, 200, 'a win is recorded');
  t.equal(first.body.user_info.score, 5);
  const retry = await call(`${api.url}/v1/scores`, post);
  t.equal(retry.status, 200, 'its retry too');
  t.equal(retry.body.user_info.score, 5, 'counted once');

  const top = await call(`${api.url}/v1/scores`);
  t.equal(top.status, 200, 'the top list answers');
  t.match(
    top.body.data,
    [{ user_id: 'ada', user_name: 'ada', score: 5, rank: 1 }],
    'names fall back to the ids',
  );
  t.equal((await call(`${api.url}/v1/scores/ada`)).body.user_info?.score, 5, 'a rank answers');

  const profile = await call(`${api.url}/v1/users/ada/profile`, { scopes: ['scores:read', 'profiles:read'] });
  t.equal(profile.status, 503, 'a profile is unavailable');
  t.equal(profile.body.code, 'LB_STORE_UNAVAILABLE');
  t.ok(Number(profile.headers.get('retry-after')) > 0, 'with Retry-After');

  const ready = await (await fetch(`${api.url}/readyz`)).json();
  t.match(ready, { status: 'degraded', degraded: { 'leaderboard:stores': /cassandra unavailable/ } });
  t.equal((await fetch(`${archiver.url}/readyz`)).status, 200, 'the archiver runs too');
  t.ok((await ports.rankings.periods()).includes('2020-01'), 'the finished month waits');
});

t.test('once Cassandra is up', async (t) => {
  const server = await backend(
    'cassandra',
    {
      CASSANDRA_PORT: String(cqlPort),
      CASSANDRA_STORAGE_PORT: String(storagePort),
      CASSANDRA_HEAP: '512m',
      TESSERA_RUN: tempDir(t, 'tessera-cassandra-'),
    },
    { ...process.env, CASSANDRA_URL: '' },
  );
  t.teardown(() => server.stop());
  await migrateAdapters(config);

  t.ok(
    await eventually(async () => !(await ports.rankings.periods()).includes('2020-01'), 120_000),
    'the archiver archives the finished month',
  );
  t.ok(await ports.archive.isArchived('2020-01'));
  t.same(await ports.archive.top('2020-01', 0, 10), [{ userId: 'old', score: 2, rank: 1 }]);
  t.ok(
    await eventually(
      async () =>
        ((await (await fetch(`${api.url}/readyz`)).json()) as { status: string }).status === 'ready',
      60_000,
    ),
    'readiness is plain again',
  );
  const put = await call(`${api.url}/v1/users/ada/profile`, {
    method: 'PUT',
    scopes: ['profiles:write'],
    body: { user_name: 'ace', display_name: 'The Ace' },
  });
  t.ok(put.status < 300, 'a profile is kept');
  t.match((await call(`${api.url}/v1/scores`)).body.data, [{ user_id: 'ada', user_name: 'ace', score: 5 }]);
});
