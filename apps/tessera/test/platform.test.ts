import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import t, { type Test } from 'tap';
import { startPlatform } from '../src/platform.ts';

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-platform-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('the embedded platform serves the leaderboard over real HTTP with a CLI-style token', async (t) => {
  const dir = dataDir(t);
  const platform = await startPlatform({
    env: { PORT: '0', SMTP_PORT: '0', FIX_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent' },
    handleSignals: false,
  });
  t.teardown(() => platform.close());
  const token = await mintToken({
    secret: loadOrCreateSecret(dir),
    sub: 'gs',
    scopes: ['scores:write', 'scores:read'],
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const posted = await fetch(`${platform.url}/v1/scores`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ user_id: 'alice', points: 2 }),
  });
  t.equal(posted.status, 200);
  t.same(await posted.json(), { user_info: { user_id: 'alice', score: 2, rank: 1 } });

  const top = await fetch(`${platform.url}/v1/scores`, { headers });
  t.same(((await top.json()) as { data: unknown[] }).data, [
    { user_id: 'alice', user_name: 'alice', rank: 1, score: 2 },
  ]);

  t.equal((await fetch(`${platform.url}/healthz`)).status, 200);
  t.equal((await fetch(`${platform.url}/readyz`)).status, 200);
  const metrics = await (await fetch(`${platform.url}/metrics`)).text();
  t.match(metrics, /leaderboard_players 1/);
  t.match(metrics, /sqlite_wal_checkpoint_rounds\{database="leaderboard\/wins.db"\} \d+/);
  t.match(metrics, /sqlite_wal_copy_back_failures\{database="leaderboard\/wins.db"\} 0/);
  t.match(metrics, /sqlite_wal_checkpoint_rounds\{database="exchange\/journal.db"\} \d+/);
  t.match(metrics, /http_request_duration_seconds_bucket\{[^}]*route="\/v1\/scores"/);
  const openapi = (await (await fetch(`${platform.url}/docs/openapi.json`)).json()) as {
    paths: Record<string, unknown>;
  };
  t.ok(openapi.paths['/v1/scores/{user_id}']);
});

t.test('a bad variable stops start-up with a message naming it', async (t) => {
  await t.rejects(startPlatform({ env: { PORT: 'eighty', DATA_DIR: dataDir(t) }, handleSignals: false }), {
    name: 'ConfigError',
    message: /PORT/,
  });
  await t.rejects(
    startPlatform({
      env: { LEADERBOARD_TIE_BREAK: 'coin-toss', DATA_DIR: dataDir(t) },
      handleSignals: false,
    }),
    { name: 'ConfigError', message: /LEADERBOARD_TIE_BREAK/ },
  );
  await t.rejects(
    startPlatform({
      env: { LEADERBOARD_TIMEZONE: 'Mars/Olympus', DATA_DIR: dataDir(t) },
      handleSignals: false,
    }),
    { name: 'ConfigError', message: /LEADERBOARD_TIMEZONE/ },
  );
});
