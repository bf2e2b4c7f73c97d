/**
 * The leaderboard over HTTP on loopback: the embedded `api` role in its own process pinned to
 * one core (taskset -c 0), this process generating load (autocannon) from the other core.
 *
 * Measures, each for BENCH_SECONDS (default 10): score updates (POST /v1/scores, random players)
 * and rank reads (GET /v1/scores/{user_id}, random players), after seeding BENCH_PLAYERS players.
 * The durable log fsyncs every group commit (DATA_FSYNC=true, the default).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { mintToken } from '@tessera/kit';
import { machine, printTable, saveResults, seededRandom } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const FSYNC = process.env.DATA_FSYNC ?? 'true';
const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
const API_ROLE = fileURLToPath(new URL('../src/roles/api.ts', import.meta.url));

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function startServer(dataDir: string): Promise<{ url: string; stop: () => void }> {
  const pin = hasTaskset();
  const nodeArgs = ['--conditions=development', '--disable-warning=ExperimentalWarning', API_ROLE];
  const child = pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...nodeArgs], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: serverEnv(dataDir),
      })
    : spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'inherit'], env: serverEnv(dataDir) });
  if (pin) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = JSON.parse(line) as { url?: string; msg?: string };
      if (entry.url && entry.msg?.endsWith('listening')) resolve(entry.url);
    });
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

function serverEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_JWT_SECRET: SECRET,
    RATE_LIMIT_ENABLED: 'false',
    DATA_FSYNC: FSYNC,
  };
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  errors: number;
  non2xx: number;
}

function player(i: number): string {
  return `p${i.toString(16).padStart(23, '0')}`;
}

async function load(
  url: string,
  token: string,
  title: string,
  request: () => { method: 'GET' | 'POST'; path: string; body?: string },
  seconds: number,
): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }],
  });
  const figures: Figures = {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(
    `  ${title}: ${Math.round(figures.requestsPerSecond).toLocaleString('en-US')} req/s, p99 ${figures.p99} ms`,
  );
  return figures;
}

const random = seededRandom(7);

const dataDir = mkdtempSync(join(tmpdir(), 'tessera-lb-http-'));
const server = await startServer(dataDir);
try {
  console.log(`leaderboard HTTP benchmark · ${machine()}`);
  console.log(
    `setup: server on core 0${hasTaskset() ? ' (taskset)' : ' (not pinned: taskset missing)'}, autocannon on core 1, ` +
      `${CONNECTIONS} connections, ${SECONDS} s per run, ${PLAYERS.toLocaleString('en-US')} players, fsync ${FSYNC}`,
  );
  const token = await mintToken({ secret: SECRET, sub: 'bench', scopes: ['scores:write', 'scores:read'] });
  // Seed every player once (not measured), then warm up.
  let next = 0;
  await load(
    server.url,
    token,
    'seeding',
    () => ({
      method: 'POST',
      path: '/v1/scores',
      body: JSON.stringify({ user_id: player(next++ % PLAYERS), points: 1 + random(5) }),
    }),
    Math.max(3, Math.ceil(PLAYERS / 20_000)),
  );
  const updates = await load(
    server.url,
    token,
    'score updates',
    () => ({
      method: 'POST',
      path: '/v1/scores',
      body: JSON.stringify({ user_id: player(random(PLAYERS)), points: 1 + random(5) }),
    }),
    SECONDS,
  );
  const reads = await load(
    server.url,
    token,
    'rank reads',
    () => ({
      method: 'GET',
      path: `/v1/scores/${player(random(Math.min(next, PLAYERS)))}`,
    }),
    SECONDS,
  );
  const top = await load(
    server.url,
    token,
    'top-10 reads',
    () => ({ method: 'GET', path: '/v1/scores' }),
    SECONDS,
  );

  const row = (f: Figures): string =>
    `${Math.round(f.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${f.p50} ms  p90 ${f.p90} ms  p99 ${f.p99} ms  p99.9 ${f.p999} ms  max ${f.max} ms  errors ${f.errors + f.non2xx}`;
  printTable('results', [
    ['score updates (POST /v1/scores)', row(updates)],
    ['rank reads (GET /v1/scores/{id})', row(reads)],
    ['top-10 reads (GET /v1/scores)', row(top)],
  ]);
  saveResults('leaderboard-http', {
    machine: machine(),
    seconds: SECONDS,
    connections: CONNECTIONS,
    players: PLAYERS,
    fsync: FSYNC,
    updates,
    reads,
    top,
  });
} finally {
  server.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
