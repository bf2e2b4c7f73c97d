/**
 * The leaderboard over HTTP on loopback: the `api` role (embedded stores) in its own process pinned to
 * one core (taskset -c 0), the load generator on the other core (taskset -c 1), and bare node:http
 * (@tessera/testkit's baseline-server.ts) on the same core as the yardstick, measured in every round.
 *
 * Throughput (saturation, closed loop, wrk): BENCH_RUNS rounds (default 3) of the baseline (bare
 * node:http's GET) and BENCH_KINDS (default `updates,reads,top`: score updates, POST /v1/scores,
 * random players; rank reads, GET /v1/scores/{user_id}; top-10 reads), the baseline first in odd
 * rounds and last in even ones, then bare node:http's share of the updates' own POSTs (parsed and
 * drained), each for BENCH_SECONDS (default 5), after seeding BENCH_PLAYERS players. Each kind's
 * share of bare node:http is taken round by round and reported as the median with its spread
 * (http-shares.ts), by requests/s and by the server's CPU time a request (from /proc, steadier
 * when other work shares the machine). `BENCH_KINDS=updates BENCH_RUNS=7 BENCH_RATES=` measures
 * issue 8's share alone: bare and updates alternated seven times.
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
  runWrk,
  startPinned,
  type BenchServer,
  type Figures,
} from '@tessera/testkit';
import { fixedRate, vegetaTargets, type Fixed } from './fixed-rate.ts';
import { machine, printTable, saveResults } from './report.ts';
import { seededRandom } from '@tessera/testkit';
import { sharesOf, sharesText } from './http-shares.ts';

type Kind = 'updates' | 'reads' | 'top';
function isKind(name: string): name is Kind {
  return name === 'updates' || name === 'reads' || name === 'top';
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const KINDS = (process.env.BENCH_KINDS ?? 'updates,reads,top').split(',').map((kind) => {
  if (!isKind(kind)) throw new Error(`BENCH_KINDS: unknown kind "${kind}" (updates, reads, top)`);
  return kind;
});
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
      `kinds ${KINDS.join(',')}, fsync ${FSYNC}, HTTP_FAST_FRONT ${process.env.HTTP_FAST_FRONT ?? 'true'}; load average before: ${loadAverage()}`,
  );
  const token = await mintToken({ secret: SECRET, sub: 'bench', scopes: ['scores:write', 'scores:read'] });
  const scripts = mkdtempSync(join(tmpdir(), 'tessera-wrk-'));
  // Seed every player (not measured, also the warm-up): rank reads of unknown players would be 404s.
  for (let seeded = 0; seeded < PLAYERS;) {
    seeded += load(scripts, server, token, 'seeding', POST_EACH_PLAYER, 3, seeded).requests;
  }
  load(scripts, bare, token, 'warm-up: bare node:http', GET_TOP, 2);
  const runs: Record<Kind | 'baseline' | 'baselinePost', Figures[]> = {
    updates: [],
    reads: [],
    top: [],
    baseline: [],
    baselinePost: [],
  };
  const requests: Record<Kind, string> = { updates: POST_RANDOM, reads: GET_RANK, top: GET_TOP };
  const titles: Record<Kind, string> = {
    updates: 'score updates (POST /v1/scores)',
    reads: 'rank reads (GET /v1/scores/{id})',
    top: 'top-10 reads (GET /v1/scores)',
  };
  const bareGet = () =>
    runs.baseline.push(load(scripts, bare, token, 'baseline: bare node:http', GET_TOP, SECONDS));
  const loads: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    console.log(`round ${run} of ${RUNS}`);
    loads.push(loadAverage());
    // Bare first in odd rounds, last in even ones: a drift over a round favours neither side.
    if (run % 2 === 1) bareGet();
    for (const kind of KINDS)
      runs[kind].push(load(scripts, server, token, titles[kind], requests[kind], SECONDS));
    if (run % 2 === 0) bareGet();
    // The same POSTs as the updates, which bare node:http parses and drains before its constant answer.
    if (KINDS.includes('updates'))
      runs.baselinePost.push(
        load(scripts, bare, token, 'baseline: bare node:http, the updates', POST_RANDOM, SECONDS),
      );
  }
  loads.push(loadAverage());
  const medians = Object.fromEntries(
    Object.entries(runs).map(([kind, figures]) => [kind, figures.length > 0 ? medianOf(figures) : undefined]),
  );
  const shares = Object.fromEntries(KINDS.map((kind) => [kind, sharesOf(runs[kind], runs.baseline)]));
  const postShares = KINDS.includes('updates') ? sharesOf(runs.updates, runs.baselinePost) : undefined;

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

  const rows: Array<[string, string]> = KINDS.map((kind) => [
    titles[kind],
    `${figuresRow(medians[kind]!)}  (${sharesText(shares[kind]!)})`,
  ]);
  rows.push(['baseline: bare node:http, constant body', figuresRow(medians.baseline!)]);
  if (postShares !== undefined)
    rows.push([
      'baseline: bare node:http, the same POSTs',
      `${figuresRow(medians.baselinePost!)}  (updates: ${sharesText(postShares, 'it')})`,
    ]);
  printTable(
    `results: medians of ${RUNS} rounds, shares as median (spread) of the rounds' (load average ${loads.join(' → ')})`,
    rows,
  );
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
    kinds: KINDS,
    loadAverage: loads,
    shares: { ...shares, updatesToBarePost: postShares },
    medians,
    rounds: runs,
    fixedRates: fixed,
  });
} finally {
  server.stop();
  bare.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
