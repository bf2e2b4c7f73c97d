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
  const dir = mkdtempSync(join(tmpdir(), 'tessera-rebuild-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captureStderr(t: Test): string[] {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  t.teardown(() => {
    process.stderr.write = write;
  });
  return lines;
}

const NOW = Date.UTC(2026, 10, 20, 12);

t.test('tessera leaderboard rebuild rebuilds a period from the win log, with progress', async (t) => {
  const dir = dataDir(t);
  const env = {
    PORT: '0',
    SMTP_PORT: '0',
    FIX_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
  };
  const token = await mintToken({
    secret: loadOrCreateSecret(dir),
    sub: 'gs',
    scopes: ['scores:write', 'scores:read'],
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const readTop = async () => {
    const platform = await startPlatform({ env, handleSignals: false, now: () => NOW });
    try {
      const res = await fetch(`${platform.url}/v1/scores?limit=100&period=2026-11`, { headers });
      return ((await res.json()) as { data: unknown[] }).data;
    } finally {
      await platform.close();
    }
  };
  const platform = await startPlatform({ env, handleSignals: false, now: () => NOW });
  for (let i = 0; i < 30; i++) {
    await fetch(`${platform.url}/v1/scores`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ user_id: `p${i % 7}`, points: 1 + (i % 3) }),
    }).then((r) => r.text());
  }
  await platform.close();
  const before = await readTop();

  const stderr = captureStderr(t);
  t.equal(await main(['leaderboard', 'rebuild', '--period', '2026-11'], env), 0);
  t.match(stderr.join(''), /rebuilt 2026-11: 30 wins, 7 players in [\d.]+ s \([\d,]+ wins\/s\)/);
  t.same(await readTop(), before, 'the rebuilt ranking is the same');
});

t.test('rebuild names what is wrong with its arguments', async (t) => {
  const errors: string[] = [];
  const error = console.error;
  console.error = (line: string) => errors.push(line);
  t.teardown(() => {
    console.error = error;
  });
  const env = { DATA_DIR: dataDir(t) };
  t.equal(await main(['leaderboard'], env), 2);
  t.match(errors.at(-1), /leaderboard rebuild --period/);
  t.equal(await main(['leaderboard', 'rebuild', '--period', 'November'], env), 2);
  t.match(errors.at(-1), /monthly period name \(got "November"\)/);
  t.equal(await main(['leaderboard', 'rebuild', '--period', '2026-11', '--force'], env), 2);
  t.match(errors.at(-1), /--force/);
  t.equal(
    await main(['leaderboard', 'rebuild', '--period', '2026-W48'], {
      ...env,
      LEADERBOARD_PERIOD: 'weekly',
      PORT: 'x',
    }),
    2,
  );
  t.match(errors.at(-1), /PORT/);
});

t.test('tessera leaderboard migrate says there is nothing to migrate on the embedded stores', async (t) => {
  const out: string[] = [];
  const log = console.log;
  console.log = (line: string) => out.push(line);
  t.teardown(() => {
    console.log = log;
  });
  t.equal(await main(['leaderboard', 'migrate'], { DATA_DIR: dataDir(t) }), 0);
  t.match(out.at(-1), /nothing to migrate/);
});
