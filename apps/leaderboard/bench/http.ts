/**
 * The leaderboard over HTTP on loopback: the `api` role (embedded stores) in its own process pinned to
 * one core (taskset -c 0), the load generator on the other core (taskset -c 1), and bare node:http
 * (@tessera/testkit's baseline-server.ts) on the same core as the yardstick, measured in every round.
 *
 * Throughput (saturation, closed loop, wrk): BENCH_RUNS rounds (default 3) of score updates
 * (POST /v1/scores, random players), rank reads (GET /v1/scores/{user_id}, random players) and
 * top-10 reads, then the baseline twice (GET, and the updates' own POSTs, whose bodies bare node:http
 * parses and drains), each for BENCH_SECONDS (default 5), after seeding BENCH_PLAYERS
 * players; the medians are reported, with the server's CPU time per request (from /proc), which
 * moves less than requests/s when other work shares the machine.
 * Latency at fixed offered loads (open loop, vegeta): BENCH_RATES (default 1000,2000 requests/s)
 * for BENCH_RATE_SECONDS (default 5) each, every kind of request and the baseline.
 * The durable log fsyncs every group commit (DATA_FSYNC=true, the default). wrk and vegeta, not a
 * Node load generator: a JavaScript client saturates its core before the server does.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken } from '@tessera/kit';
import {
  BASELINE_SERVER,
  TESSERA_MAIN,
  ensureWrk,
  figuresRow,
  hasTaskset,
  loadAverage,
  medianOf,
  medianRatio,
  runWrk,
  startPinned,
  type BenchServer,
  type Figures,
} from '@tessera/testkit';
import { fixedRate, vegetaTargets, type Fixed } from './fixed-rate.ts';
import { machine, printTable, saveResults } from './report.ts';
import { seededRandom } from '@tessera/testkit';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RATES = (process.env.BENCH_RATES ?? '1000,2000').split(',').filter(Boolean).map(Number);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 5);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const FSYNC = process.env.DATA_FSYNC ?? 'true';
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
// The `api` role as production runs it: `tessera run leaderboard api`.
const API_ROLE = [TESSERA_MAIN, 'run', 'leaderboard', 'api'];
const ENSURE_VEGETA = fileURLToPath(new URL('../../../tools/ensure-vegeta.sh', import.meta.url));

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

/** wrk's per-connection setup: the token, JSON, and the players' ids. */
function setup(token: string, start: number): string {
  return `
wrk.headers["Authorization"] = "Bearer ${token}"
wrk.headers["Content-Type"] = "application/json"
local players = ${PLAYERS}
counter = ${start}
math.randomseed(7)
function player(i) return string.format("p%023x", i) end`;
}

function load(
  dir: string,
  server: BenchServer,
  token: string,
  title: string,
  request: string,
  seconds: number,
  start = 0,
): Figures {
  return runWrk({
    dir,
    server,
    title,
    setup: setup(token, start),
    request,
    seconds,
    connections: CONNECTIONS,
  });
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

ensureWrk();
const vegeta = RATES.length > 0 ? execFileSync('bash', [ENSURE_VEGETA], { encoding: 'utf8' }).trim() : '';
const dataDir = mkdtempSync(join(tmpdir(), 'tessera-lb-http-'));
const server = await startPinned(API_ROLE, serverEnv(dataDir), { profileDir: PROFILE_DIR });
const bare = await startPinned([BASELINE_SERVER], serverEnv(dataDir));
const player = (i: number) => `p${i.toString(16).padStart(23, '0')}`;
const random = seededRandom(11);
try {
  console.log(`leaderboard HTTP benchmark · ${machine()}`);
  console.log(
    `setup: server on core 0${hasTaskset() ? ' (taskset)' : ' (not pinned: taskset missing)'}, load generator on core 1, ` +
      `wrk ${CONNECTIONS} connections, ${RUNS} × ${SECONDS} s per figure, ${PLAYERS.toLocaleString('en-US')} players, ` +
      `fsync ${FSYNC}, HTTP_FAST_FRONT ${process.env.HTTP_FAST_FRONT ?? 'true'}; load average before: ${loadAverage()}`,
  );
  const token = await mintToken({ secret: SECRET, sub: 'bench', scopes: ['scores:write', 'scores:read'] });
  const scripts = mkdtempSync(join(tmpdir(), 'tessera-wrk-'));
  // Seed every player (not measured, also the warm-up): rank reads of unknown players would be 404s.
  for (let seeded = 0; seeded < PLAYERS;) {
    seeded += load(scripts, server, token, 'seeding', POST_EACH_PLAYER, 3, seeded).requests;
  }
  load(scripts, bare, token, 'warm-up: bare node:http', GET_TOP, 2);
  const runs: Record<'updates' | 'reads' | 'top' | 'baseline' | 'baselinePost', Figures[]> = {
    updates: [],
    reads: [],
    top: [],
    baseline: [],
    baselinePost: [],
  };
  const loads: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    console.log(`round ${run} of ${RUNS}`);
    loads.push(loadAverage());
    runs.updates.push(load(scripts, server, token, 'score updates', POST_RANDOM, SECONDS));
    runs.reads.push(load(scripts, server, token, 'rank reads', GET_RANK, SECONDS));
    runs.top.push(load(scripts, server, token, 'top-10 reads', GET_TOP, SECONDS));
    runs.baseline.push(load(scripts, bare, token, 'baseline: bare node:http', GET_TOP, SECONDS));
    // The same POSTs as the updates, which bare node:http parses and drains before its constant answer.
    runs.baselinePost.push(
      load(scripts, bare, token, 'baseline: bare node:http, the updates', POST_RANDOM, SECONDS),
    );
  }
  loads.push(loadAverage());
  const updates = medianOf(runs.updates);
  const reads = medianOf(runs.reads);
  const top = medianOf(runs.top);
  const baseline = medianOf(runs.baseline);
  const baselinePost = medianOf(runs.baselinePost);
  // The ratio of each round, then their median: a round's figures share the machine's state.
  const ratio = (kind: 'updates' | 'reads' | 'top') => medianRatio(runs[kind], runs.baseline);
  const ratios = {
    updates: ratio('updates'),
    reads: ratio('reads'),
    top: ratio('top'),
    updatesToBarePost: medianRatio(runs.updates, runs.baselinePost),
  };

  const fixed: Record<string, Fixed[]> = { updates: [], reads: [], top: [], baseline: [] };
  if (RATES.length > 0) console.log(`fixed offered loads (vegeta, open loop, ${RATE_SECONDS} s each)`);
  for (const rate of RATES) {
    const count = Math.min(rate * RATE_SECONDS, 20_000);
    const post = (i: number) => ({
      method: 'POST',
      path: '/v1/scores',
      body: JSON.stringify({ user_id: player(random(PLAYERS)), points: 1 + (i % 5) }),
    });
    const rank = () => ({ method: 'GET', path: `/v1/scores/${player(random(PLAYERS))}` });
    const topTen = () => ({ method: 'GET', path: '/v1/scores' });
    fixed.updates!.push(
      fixedRate(
        vegeta,
        scripts,
        server,
        'score updates',
        vegetaTargets(server.url, token, count, post),
        rate,
        RATE_SECONDS,
      ),
    );
    fixed.reads!.push(
      fixedRate(
        vegeta,
        scripts,
        server,
        'rank reads',
        vegetaTargets(server.url, token, count, rank),
        rate,
        RATE_SECONDS,
      ),
    );
    fixed.top!.push(
      fixedRate(
        vegeta,
        scripts,
        server,
        'top-10 reads',
        vegetaTargets(server.url, token, 1, topTen),
        rate,
        RATE_SECONDS,
      ),
    );
    fixed.baseline!.push(
      fixedRate(
        vegeta,
        scripts,
        bare,
        'baseline: bare node:http',
        vegetaTargets(bare.url, token, 1, topTen),
        rate,
        RATE_SECONDS,
      ),
    );
  }
  rmSync(scripts, { recursive: true, force: true });

  const row = figuresRow;
  const share = (kind: 'updates' | 'reads' | 'top') => `${ratios[kind].toFixed(2)} of bare node:http`;
  printTable(`results: medians of ${RUNS} rounds (load average ${loads.join(' → ')})`, [
    ['score updates (POST /v1/scores)', `${row(updates)}  (${share('updates')})`],
    ['rank reads (GET /v1/scores/{id})', `${row(reads)}  (${share('reads')})`],
    ['top-10 reads (GET /v1/scores)', `${row(top)}  (${share('top')})`],
    ['baseline: bare node:http, constant body', row(baseline)],
    [
      'baseline: bare node:http, the same POSTs',
      `${row(baselinePost)}  (updates: ${ratios.updatesToBarePost.toFixed(2)} of it)`,
    ],
  ]);
  if (RATES.length > 0) {
    const names = {
      updates: 'score updates',
      reads: 'rank reads',
      top: 'top-10 reads',
      baseline: 'baseline',
    };
    printTable(
      'at fixed offered loads: p50 / p99 / max latency (ms), server CPU per request (µs)',
      Object.entries(fixed).map(([kind, list]) => [
        names[kind as keyof typeof names],
        list.map((f) => `${f.rate}/s: ${f.p50} / ${f.p99} / ${f.max} ms, ${f.cpuMicros} µs`).join('   '),
      ]),
    );
  }
  saveResults('leaderboard-http', {
    machine: machine(),
    seconds: SECONDS,
    runs: RUNS,
    connections: CONNECTIONS,
    players: PLAYERS,
    fsync: FSYNC,
    loadAverage: loads,
    ratios,
    medians: { updates, reads, top, baseline, baselinePost },
    rounds: runs,
    fixedRates: fixed,
  });
} finally {
  server.stop();
  bare.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
