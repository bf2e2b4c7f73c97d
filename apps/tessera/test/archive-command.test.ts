import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import t, { type Test } from 'tap';
import { main } from '../src/cli.ts';
import { startPlatform } from '../src/platform.ts';

// Each case starts the whole platform (every service, its threads) several times: on two busy
// cores that passes tap's default 30 s.
t.setTimeout(120_000);

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-archive-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function capture(t: Test, stream: 'log' | 'error'): string[] {
  const lines: string[] = [];
  const original = console[stream].bind(console);
  console[stream] = (line: string) => lines.push(line);
  t.teardown(() => {
    console[stream] = original;
  });
  return lines;
}

const OCTOBER = Date.UTC(2026, 9, 20, 12);
const NOVEMBER = Date.UTC(2026, 10, 20, 12);

t.test('tessera archive leaderboard archives a period once and keeps the newest N', async (t) => {
  const dir = dataDir(t);
  const env = { PORT: '0', SMTP_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent' };
  const token = await mintToken({
    secret: loadOrCreateSecret(dir),
    sub: 'gs',
    scopes: ['scores:write', 'scores:read'],
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const october = await startPlatform({ env, handleSignals: false, now: () => OCTOBER });
  for (let i = 0; i < 12; i++) {
    const res = await fetch(`${october.url}/v1/scores`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ user_id: `p${i % 5}`, points: 1 + (i % 4) }),
    });
    await res.text();
  }
  const live = await (await fetch(`${october.url}/v1/scores?limit=10&period=2026-10`, { headers })).json();
  await october.close();

  const out = capture(t, 'log');
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-08', '--keep', '5'], env), 0);
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-09', '--keep', '5'], env), 0);
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-10', '--keep', '2'], env), 0);
  t.equal(out.at(-1), 'archived 2026-10: 5 players; deleted 2026-08, past the retention of 2');
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-10', '--keep', '2'], env), 0);
  t.equal(out.at(-1), '2026-10 was archived already; nothing past the retention of 2', 'idempotent');

  // In November the platform reads October from the archive: the same standings.
  const november = await startPlatform({ env, handleSignals: false, now: () => NOVEMBER });
  t.teardown(() => november.close());
  const archived = await (
    await fetch(`${november.url}/v1/scores?limit=10&period=2026-10`, { headers })
  ).json();
  t.same(archived, live, 'October reads the same from the archive');
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-11', '--keep', '1'], env), 0);
  t.equal(out.at(-1), 'archived 2026-11: 0 players; deleted 2026-09, 2026-10, past the retention of 1');
});

t.test('archive names what is wrong with its arguments', async (t) => {
  const errors = capture(t, 'error');
  const env = { DATA_DIR: dataDir(t) };
  t.equal(await main(['archive'], env), 2);
  t.match(errors.at(-1), /archive leaderboard --period <P> --keep <N>/);
  t.equal(await main(['archive', 'mail', '--period', '2026-10', '--keep', '1'], env), 2);
  t.match(errors.at(-1), /needs a service \(leaderboard\)/);
  t.equal(await main(['archive', 'leaderboard', '--period', 'October', '--keep', '1'], env), 2);
  t.match(errors.at(-1), /monthly period name \(got "October"\)/);
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-10'], env), 2);
  t.match(errors.at(-1), /--keep/);
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-10', '--keep', '0'], env), 2);
  t.match(errors.at(-1), /at least 1 \(got "0"\)/);
  t.equal(await main(['archive', 'leaderboard', '--period', '2026-10', '--keep', '1', '--all'], env), 2);
  t.match(errors.at(-1), /--all/);
});
