/**
 * The leaderboard over HTTP on loopback: the `api` role (embedded stores) in its own process pinned to
 * one core (taskset -c 0), wrk generating load from the other core (taskset -c 1).
 *
 * Measures, each for BENCH_SECONDS (default 10): score updates (POST /v1/scores, random players)
 * and rank reads (GET /v1/scores/{user_id}, random players), after seeding BENCH_PLAYERS players,
 * and top-10 reads. The durable log fsyncs every group commit (DATA_FSYNC=true, the default).
 * wrk, not a Node load generator: a JavaScript client saturates its core before the server does.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mintToken } from '@tessera/kit';
import { machine, printTable, saveResults } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const FSYNC = process.env.DATA_FSYNC ?? 'true';
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
// The `api` role as production runs it: `tessera run leaderboard api`.
const API_ROLE = [
  fileURLToPath(new URL('../../tessera/src/main.ts', import.meta.url)),
  'run',
  'leaderboard',
  'api',
];
const BASELINE = [fileURLToPath(new URL('./baseline-server.ts', import.meta.url))];
const ENSURE_WRK = fileURLToPath(new URL('../../../tools/ensure-wrk.sh', import.meta.url));

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function startServer(
  script: readonly string[],
  dataDir: string,
): Promise<{ url: string; stop: () => void }> {
  const pin = hasTaskset();
  // BENCH_CPU_PROF=<dir>: the api process writes a V8 CPU profile there when it stops.
  const profile =
    script === API_ROLE && PROFILE_DIR !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const nodeArgs = [
    '--conditions=development',
    '--disable-warning=ExperimentalWarning',
    ...profile,
    ...script,
  ];
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
    LOG_LEVEL: 'info',
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
}

/** The Lua that makes wrk send `request` and print its figures as one JSON line. */
function wrkScript(token: string, request: string): string {
  return `
wrk.headers["Authorization"] = "Bearer ${token}"
wrk.headers["Content-Type"] = "application/json"
local players = ${PLAYERS}
local counter = 0
math.randomseed(7)
local function player(i) return string.format("p%023x", i) end
${request}
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status
  io.write(string.format('{"requests":%d,"us":%d,"errors":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}\\n',
    summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency:percentile(99.9), latency.max))
end
`;
}

function load(
  dir: string,
  url: string,
  token: string,
  title: string,
  request: string,
  seconds: number,
): Figures {
  const script = join(dir, `${title.replace(/\W+/g, '-')}.lua`);
  writeFileSync(script, wrkScript(token, request));
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', script, url];
  const output = execFileSync(
    hasTaskset() ? 'taskset' : 'wrk',
    hasTaskset() ? ['-c', '1', 'wrk', ...args] : args,
    {
      encoding: 'utf8',
    },
  );
  const line = output.split('\n').find((l) => l.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`wrk printed no figures:\n${output}`);
  const raw = JSON.parse(line) as Record<string, number>;
  const ms = (us: number | undefined) => Math.round((us ?? 0) / 10) / 100;
  const figures: Figures = {
    requestsPerSecond: (raw.requests! / raw.us!) * 1e6,
    p50: ms(raw.p50),
    p90: ms(raw.p90),
    p99: ms(raw.p99),
    p999: ms(raw.p999),
    max: ms(raw.max),
    errors: raw.errors!,
  };
  console.log(
    `  ${title}: ${Math.round(figures.requestsPerSecond).toLocaleString('en-US')} req/s, p99 ${figures.p99} ms`,
  );
  return figures;
}

const POST_EACH_PLAYER = `
request = function()
  counter = counter + 1
  return wrk.format("POST", "/v1/scores", nil, '{"user_id":"' .. player(counter % players) .. '","points":' .. math.random(1, 5) .. '}')
end`;
const POST_RANDOM = `
request = function()
  return wrk.format("POST", "/v1/scores", nil, '{"user_id":"' .. player(math.random(0, players - 1)) .. '","points":' .. math.random(1, 5) .. '}')
end`;
const GET_RANK = `
request = function()
  return wrk.format("GET", "/v1/scores/" .. player(math.random(0, players - 1)))
end`;
const GET_TOP = `
request = function()
  return wrk.format("GET", "/v1/scores")
end`;

execFileSync('bash', [ENSURE_WRK], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'tessera-lb-http-'));
const server = await startServer(API_ROLE, dataDir);
try {
  console.log(`leaderboard HTTP benchmark · ${machine()}`);
  console.log(
    `setup: server on core 0${hasTaskset() ? ' (taskset)' : ' (not pinned: taskset missing)'}, wrk on core 1, ` +
      `${CONNECTIONS} connections, ${SECONDS} s per run, ${PLAYERS.toLocaleString('en-US')} players, fsync ${FSYNC}`,
  );
  const token = await mintToken({ secret: SECRET, sub: 'bench', scopes: ['scores:write', 'scores:read'] });
  const scripts = mkdtempSync(join(tmpdir(), 'tessera-wrk-'));
  // Seed every player once (not measured, also the warm-up).
  load(scripts, server.url, token, 'seeding', POST_EACH_PLAYER, Math.max(3, Math.ceil(PLAYERS / 5_000)));
  const updates = load(scripts, server.url, token, 'score updates', POST_RANDOM, SECONDS);
  const reads = load(scripts, server.url, token, 'rank reads', GET_RANK, SECONDS);
  const top = load(scripts, server.url, token, 'top-10 reads', GET_TOP, SECONDS);
  const bare = await startServer(BASELINE, dataDir);
  const baseline = load(scripts, bare.url, token, 'baseline: bare node:http', GET_TOP, SECONDS);
  bare.stop();
  rmSync(scripts, { recursive: true, force: true });

  const row = (f: Figures): string =>
    `${Math.round(f.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${f.p50} ms  p90 ${f.p90} ms  p99 ${f.p99} ms  p99.9 ${f.p999} ms  max ${f.max} ms  errors ${f.errors}`;
  const share = (f: Figures) =>
    `${Math.round((f.requestsPerSecond / baseline.requestsPerSecond) * 100)}% of bare node:http`;
  printTable('results', [
    ['score updates (POST /v1/scores)', `${row(updates)}  (${share(updates)})`],
    ['rank reads (GET /v1/scores/{id})', `${row(reads)}  (${share(reads)})`],
    ['top-10 reads (GET /v1/scores)', `${row(top)}  (${share(top)})`],
    ['baseline: bare node:http, constant body', row(baseline)],
  ]);
  saveResults('leaderboard-http', {
    baseline,
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
