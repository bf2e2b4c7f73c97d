/**
 * A short k6 run of k8s-tests/load/leaderboard.js against the embedded platform (`tessera serve`,
 * started here): a few seconds at a few hundred requests/s, its thresholds decide. (Through the
 * cluster's ingress comes with the cluster.) The figures are printed.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mintToken } from '@tessera/kit';
import { parsePlayers } from '@tessera/operator';
import { launchTessera, tempDir, tool } from '@tessera/testkit';
import t from 'tap';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../load/leaderboard.js', import.meta.url));

t.setTimeout(900_000);

interface Summary {
  metrics: Record<
    string,
    { count?: number; rate?: number; value?: number; 'p(99)'?: number; med?: number; fails?: number }
  >;
}

t.test('k6: wins, top 10 and ranks within the thresholds, against tessera serve', async (t) => {
  const k6 = await tool('k6');
  const dir = tempDir(t, 'tessera-k6-');
  const secret = 'k6-test-secret-0123456789abcdef0123456789';
  const tessera = await launchTessera(['serve'], {
    env: { AUTH_JWT_SECRET: secret, DATA_DIR: join(dir, 'data'), DATA_FSYNC: 'false' },
  });
  t.teardown(() => tessera.stop());
  const token = (sub: string, scope: string) => mintToken({ secret, sub, scopes: [scope], ttlSeconds: 600 });
  const summaryFile = join(dir, 'summary.json');
  const env = {
    ...process.env,
    K6_NO_USAGE_REPORT: 'true',
    BASE_URL: tessera.url,
    TOKEN_WRITE: await token('game-server-k6', 'scores:write'),
    TOKEN_READ: await token('client-k6', 'scores:read'),
    DURATION: '5s',
    WRITE_RATE: '100',
    TOP_RATE: '50',
    RANK_RATE: '50',
    PLAYERS: '200',
  };
  const result = await run(k6, ['run', '--quiet', '--no-color', '--summary-export', summaryFile, SCRIPT], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => 0,
    (error: { code?: number; stdout?: string; stderr?: string }) => {
      t.comment(error.stdout ?? '', error.stderr ?? '');
      return error.code ?? -1;
    },
  );
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
  const m = summary.metrics;
  const requests = m.http_reqs?.count ?? 0;
  t.comment(
    `k6 5 s against tessera serve (embedded, one process, this shared 2-core machine): ${requests} requests ` +
      `(${(m.http_reqs?.rate ?? 0).toFixed(0)}/s), failed ${((m.http_req_failed?.value ?? 0) * 100).toFixed(2)} %, ` +
      `p50 ${(m.http_req_duration?.med ?? 0).toFixed(2)} ms, p99 ${(m.http_req_duration?.['p(99)'] ?? 0).toFixed(2)} ms`,
  );
  t.equal(result, 0, 'the thresholds hold (k6 exit code 0)');
  t.ok(requests >= 800, `${requests} requests made (about 200/s for 5 s)`);

  // What the operator reads for status.players: the api's own gauge.
  const players = parsePlayers(await (await fetch(`${tessera.url}/metrics`)).text());
  t.ok(players !== undefined && players > 0 && players <= 200, `leaderboard_players on /metrics: ${players}`);
});

t.test('k6: a threshold that cannot hold fails the run', async (t) => {
  const k6 = await tool('k6');
  // Nothing listens on port 9: every request fails, so http_req_failed breaks its threshold.
  const code = await run(k6, ['run', '--quiet', '--no-color', SCRIPT], {
    env: {
      ...process.env,
      K6_NO_USAGE_REPORT: 'true',
      BASE_URL: 'http://127.0.0.1:9',
      DURATION: '1s',
      WRITE_RATE: '5',
      TOP_RATE: '5',
      RANK_RATE: '5',
    },
  }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
  t.not(code, 0, 'a non-zero exit');
});
