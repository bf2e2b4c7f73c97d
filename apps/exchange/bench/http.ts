/**
 * The exchange over REST on loopback (issue #12: "orders/s and p50/p99, with the ratio to bare
 * node:http on the same core in the same run, goal ≥ 0.6"): the `gateway` role in its own process
 * pinned to core 0, wrk on core 1, bare node:http on the same core as the yardstick in every round
 * (@tessera/testkit's http-bench.ts, the leaderboard's method).
 *
 * BENCH_ACCOUNTS accounts (default 32), each funded with cash and shares, send limit orders of
 * 1–10 shares at prices 9,990–10,010 on AAPL and MSFT, half buys and half sells, so about half of
 * them fill on arrival; each answer waits for the journal's group commit (DATA_FSYNC and
 * EXCHANGE_JOURNAL_SYNC as configured, default full). Then one account's order by id
 * (GET /v1/order/{id}) and the AAPL book (GET /marketdata/orderBook/L2, public); the baseline twice, a
 * GET and the orders' own POSTs (bodies parsed and drained by bare node:http). BENCH_RUNS rounds
 * (default 3) of BENCH_SECONDS (default 5) each; medians; the ratio is the median of each round's
 * ratio to the baseline of the same round. Writes exchange-http.json (with BENCH_ONLY=orders, the
 * orders alone: exchange-http-orders.json) to bench-results/ (or
 * BENCH_RESULTS_DIR).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 32);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** BENCH_ONLY=orders: the orders and both baselines only (shorter A/B runs, profiles of orders alone). */
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'orders') throw new Error(`BENCH_ONLY takes only 'orders', not '${ONLY}'`);
const ORDERS_ONLY = ONLY === 'orders';
const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
const GATEWAY = [TESSERA_MAIN, 'run', 'exchange', 'gateway'];

function serverEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    AUTH_JWT_SECRET: SECRET,
    RATE_LIMIT_ENABLED: 'false',
    EXCHANGE_HOURS: 'always',
    FIX_PORT: '0',
  };
}

async function call(url: string, token: string, method: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer: unknown = await response.json();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const account = (i: number) => `bench-${i}`;

/** wrk's per-connection setup: one token per account, a request picks an account at random. */
function setup(tokens: readonly string[], ids: readonly number[] = []): string {
  return `
local tokens = { ${tokens.map((token) => `"Bearer ${token}"`).join(', ')} }
local ids = { ${ids.join(', ')} }
local symbols = { "AAPL", "MSFT" }
local sides = { "buy", "sell" }
math.randomseed(os.time() + math.random(1, 1000000))`;
}

const PLACE = `
request = function()
  local body = string.format('{"symbol":"%s","side":"%s","price":%d,"orderType":"limit","quantity":%d}',
    symbols[math.random(1, 2)], sides[math.random(1, 2)], math.random(9990, 10010), math.random(1, 10))
  -- Headers given here replace wrk.headers: the content type goes with them.
  local headers = { ["Authorization"] = tokens[math.random(1, #tokens)], ["Content-Type"] = "application/json" }
  return wrk.format("POST", "/v1/order", headers, body)
end`;
const READ_ORDER = `
request = function()
  return wrk.format("GET", "/v1/order/" .. ids[math.random(1, #ids)], { ["Authorization"] = tokens[1] })
end`;
const READ_BOOK = `
request = function()
  return wrk.format("GET", "/marketdata/orderBook/L2?symbol=AAPL")
end`;

ensureWrk();
const dataDir = mkdtempSync(join(tmpdir(), 'tessera-ex-http-'));
const scripts = mkdtempSync(join(tmpdir(), 'tessera-wrk-'));
const server = await startPinned(GATEWAY, serverEnv(dataDir), { profileDir: process.env.BENCH_CPU_PROF });
const bare = await startPinned([BASELINE_SERVER], serverEnv(dataDir));
const load = (target: BenchServer, title: string, setupLua: string, request: string, seconds = SECONDS) =>
  runWrk({
    dir: scripts,
    server: target,
    title,
    setup: setupLua,
    request,
    seconds,
    connections: CONNECTIONS,
  });
try {
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'} · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version}`;
  console.log(`exchange REST benchmark · ${machine}`);
  console.log(
    `setup: gateway on core 0${hasTaskset() ? ' (taskset)' : ' (not pinned: taskset missing)'}, wrk on core 1, ` +
      `${CONNECTIONS} connections, ${RUNS} × ${SECONDS} s per figure, ${ACCOUNTS} accounts, ` +
      `DATA_FSYNC ${process.env.DATA_FSYNC ?? 'true'}, EXCHANGE_JOURNAL_SYNC ${process.env.EXCHANGE_JOURNAL_SYNC ?? 'full'}, ` +
      `HTTP_FAST_FRONT ${process.env.HTTP_FAST_FRONT ?? 'true'}; ` +
      `load average before: ${loadAverage()}`,
  );
  const admin = await mintToken({ secret: SECRET, sub: 'bench-admin', scopes: ['admin'] });
  const tokens: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    await call(`${server.url}/v1/accounts/${account(i)}/deposits`, admin, 'POST', {
      cash: 1e15,
      shares: { AAPL: 1e9, MSFT: 1e9 },
    });
    tokens.push(await mintToken({ secret: SECRET, sub: account(i), scopes: ['trade'] }));
  }
  // Warm-up (not measured), which also gives the first account orders to read back.
  load(server, 'warm-up: orders', setup(tokens), PLACE, 3);
  load(bare, 'warm-up: bare node:http', setup(tokens), READ_BOOK, 2);
  const page = (await call(`${server.url}/v1/orders?limit=1000`, tokens[0]!, 'GET')) as {
    data: Array<{ id: number }>;
  };
  const ids = page.data.map((order) => order.id);
  if (ids.length === 0) throw new Error('the warm-up placed no order for the first account');

  const runs: Record<'orders' | 'orderReads' | 'book' | 'baseline' | 'baselinePost', Figures[]> = {
    orders: [],
    orderReads: [],
    book: [],
    baseline: [],
    baselinePost: [],
  };
  const loads: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    console.log(`round ${run} of ${RUNS}`);
    loads.push(loadAverage());
    runs.orders.push(load(server, 'orders (POST /v1/order)', setup(tokens), PLACE));
    if (!ORDERS_ONLY) {
      runs.orderReads.push(load(server, 'order reads (GET /v1/order/{id})', setup(tokens, ids), READ_ORDER));
      runs.book.push(load(server, 'book reads (GET /marketdata/orderBook/L2)', setup(tokens), READ_BOOK));
    }
    runs.baseline.push(load(bare, 'baseline: bare node:http', setup(tokens), READ_BOOK));
    // The orders' own POSTs, whose bodies bare node:http parses and drains before its constant answer.
    runs.baselinePost.push(load(bare, 'baseline: bare node:http, the orders', setup(tokens), PLACE));
  }
  loads.push(loadAverage());
  const medians = {
    orders: medianOf(runs.orders),
    orderReads: ORDERS_ONLY ? undefined : medianOf(runs.orderReads),
    book: ORDERS_ONLY ? undefined : medianOf(runs.book),
    baseline: medianOf(runs.baseline),
    baselinePost: medianOf(runs.baselinePost),
  };
  const ratios = {
    orders: medianRatio(runs.orders, runs.baseline),
    orderReads: ORDERS_ONLY ? undefined : medianRatio(runs.orderReads, runs.baseline),
    book: ORDERS_ONLY ? undefined : medianRatio(runs.book, runs.baseline),
    ordersToBarePost: medianRatio(runs.orders, runs.baselinePost),
  };
  console.log(`\nresults: medians of ${RUNS} rounds (load average ${loads.join(' → ')})`);
  const rows: Array<[string, Figures | undefined, number | undefined]> = [
    ['orders (POST /v1/order, goal ≥ 0.6)', medians.orders, ratios.orders],
    ['order reads (GET /v1/order/{id})', medians.orderReads, ratios.orderReads],
    ['book reads (GET /marketdata/orderBook/L2)', medians.book, ratios.book],
    ['baseline: bare node:http, constant body', medians.baseline, undefined],
  ];
  for (const [name, figures, ratio] of rows) {
    if (figures === undefined) continue;
    const share = ratio === undefined ? '' : `  (${ratio.toFixed(2)} of bare node:http)`;
    console.log(`  ${name.padEnd(42)} ${figuresRow(figures)}${share}`);
  }
  console.log(
    `  ${'baseline: bare node:http, the same POSTs'.padEnd(42)} ${figuresRow(medians.baselinePost)}` +
      `  (orders: ${ratios.ordersToBarePost.toFixed(2)} of it)`,
  );
  const dir =
    process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('../../../bench-results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  // A run of the orders alone is not the full run's figures: a file of its own.
  const file = join(dir, ORDERS_ONLY ? 'exchange-http-orders.json' : 'exchange-http.json');
  writeFileSync(
    file,
    `${JSON.stringify({ machine, seconds: SECONDS, runs: RUNS, accounts: ACCOUNTS, connections: CONNECTIONS, loadAverage: loads, ratios, medians, rounds: runs }, null, 2)}\n`,
  );
  console.log(`\nresults: ${file}`);
} finally {
  server.stop();
  bare.stop();
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(scripts, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
