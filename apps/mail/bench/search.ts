/**
 * Search and REST figures at scale (issue 13's "Figures"): index lag p95 (goal ≤ 2 s) and query
 * latency at BENCH_MESSAGES stored messages (default 1,000,000 over 1,000 users), and REST list
 * and get throughput with wrk beside bare node:http in the same run.
 *
 * 1. Populate: a seeded corpus (bench/corpus.ts) written through the MetadataStore and
 *    SearchIndex ports in large batches (one group commit each), not through SMTP.
 * 2. Index lag: with the store full, the indexer running as `startMail` runs it, messages are
 *    filed as the worker files them (onto the index backlog), at a steady rate; each one's lag
 *    is the time from its filing commit to the first search by its unique token that finds it.
 * 3. Query latency: queries of every supported kind for random users through the SearchIndex
 *    port in process, then through REST GET /v1/search against the server of step 4.
 * 4. REST throughput: bench/search-server.ts over the same data directory pinned to core 0,
 *    wrk on core 1 (packages/testkit's http-bench), a valid token of its user per request.
 *
 * Environment: BENCH_MESSAGES, BENCH_USERS, BENCH_LAG_RATE (per s), BENCH_LAG_SECONDS,
 * BENCH_QUERIES, BENCH_WRK_SECONDS, BENCH_CONNECTIONS, BENCH_RESULTS_DIR (where
 * mail-search.json goes; default bench-results/ at the repository root), BENCH_CPU_PROF (a
 * directory: the REST server writes a V8 CPU profile of its whole run there when it stops).
 * Exits non-zero on any error: a failed request, a delivered message never found.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken } from '@tessera/kit';
import {
  BASELINE_SERVER,
  ensureWrk,
  loadAverage,
  runWrk,
  startPinned,
  type BenchServer,
  type Figures,
} from '@tessera/testkit';
import { openEmbeddedMail } from '../src/adapters/embedded/open-embedded.ts';
import { Corpus } from './corpus.ts';
import { indexLag, LAG_TICK_MS, POLL_MS } from './search/index-lag.ts';
import { summary } from './search/latency.ts';
import { populate } from './search/populate.ts';
import { portQueries, QUERY_KINDS, restQueries } from './search/queries.ts';
import { checkWrk, wrkScript } from './search/wrk-targets.ts';

const setting = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const MESSAGES = setting('BENCH_MESSAGES', 1_000_000);
const USERS = Math.min(setting('BENCH_USERS', 1000), MESSAGES);
const LAG_RATE = setting('BENCH_LAG_RATE', 200);
const LAG_SECONDS = setting('BENCH_LAG_SECONDS', 20);
const QUERIES = setting('BENCH_QUERIES', 3000);
const WRK_SECONDS = setting('BENCH_WRK_SECONDS', 10);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 16);
const BATCH = 5000;
const SECRET = 'mail-search-bench-secret-long-enough-for-hs256-0123456789';

function saveResults(results: unknown): void {
  const dir =
    process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('../../../bench-results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mail-search.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: ${join(dir, 'mail-search.json')}`);
}

async function main(): Promise<void> {
  ensureWrk();
  const loadBefore = loadAverage();
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mail-search-'));
  const servers: BenchServer[] = [];
  try {
    const corpus = new Corpus({ seed: 13, users: USERS });
    const ports = openEmbeddedMail({ dataDir, synchronous: 'normal' });
    console.error(
      `populating ${MESSAGES.toLocaleString('en-US')} messages over ${USERS} users in ${dataDir}`,
    );
    const population = await populate(ports, corpus, { messages: MESSAGES, users: USERS, batch: BATCH });
    console.error(`index lag: ${LAG_RATE}/s for ${LAG_SECONDS} s`);
    const loadLag = loadAverage();
    const lag = await indexLag(ports, corpus, { rate: LAG_RATE, seconds: LAG_SECONDS });
    if (lag.found !== lag.delivered)
      throw new Error(`index lag: ${lag.delivered - lag.found} of ${lag.delivered} never found`);
    console.error(`queries through the SearchIndex port: ${QUERIES}`);
    const port = await portQueries(ports, corpus, QUERIES);
    await ports.close();

    const users = [...new Set(population.samples.map((s) => s.user))];
    const tokenOf = new Map<string, string>();
    for (const user of users)
      tokenOf.set(user, await mintToken({ secret: SECRET, sub: user, scopes: ['mail'] }));
    const token = (user: string): string => tokenOf.get(user) ?? '';

    const profileDir = process.env.BENCH_CPU_PROF;
    const server = await startPinned(
      [fileURLToPath(new URL('./search-server.ts', import.meta.url))],
      { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_SECRET: SECRET },
      profileDir === undefined ? {} : { profileDir },
    );
    servers.push(server);
    console.error(`queries through REST GET /v1/search: ${QUERIES}`);
    const rest = await restQueries(server, corpus, [...tokenOf.values()], QUERIES);

    const wrkDir = join(dataDir, 'wrk');
    mkdirSync(wrkDir, { recursive: true });
    const common = { dir: wrkDir, seconds: WRK_SECONDS, connections: CONNECTIONS };
    const list = checkWrk(
      'list',
      runWrk({
        ...common,
        server,
        title: 'GET /v1/folders/inbox/messages?limit=50',
        ...wrkScript(users.map((u) => ({ path: '/v1/folders/inbox/messages?limit=50', token: token(u) }))),
      }),
    );
    const get = checkWrk(
      'get',
      runWrk({
        ...common,
        server,
        title: 'GET /v1/messages/{id}',
        ...wrkScript(
          population.samples.map((s) => ({ path: `/v1/messages/${s.emailId}`, token: token(s.user) })),
        ),
      }),
    );
    server.stop();
    const baseline = await startPinned([BASELINE_SERVER], process.env);
    servers.push(baseline);
    const bare = checkWrk(
      'baseline',
      runWrk({
        ...common,
        server: baseline,
        title: 'bare node:http',
        setup: '',
        request: 'request = function() return wrk.format("GET", "/") end',
      }),
    );
    baseline.stop();

    const rate = (f: Figures) => Math.round(f.requestsPerSecond);
    const results = {
      machine: `${cpus()[0]?.model ?? 'unknown CPU'} · ${cpus().length} cores · Node ${process.version}`,
      load_average: { before: loadBefore, index_lag: loadLag, after: loadAverage() },
      setup: {
        messages: MESSAGES,
        users: USERS,
        body_bytes: '1024–4096',
        lag: { rate_per_s: LAG_RATE, seconds: LAG_SECONDS, poll_ms: POLL_MS, tick_ms: LAG_TICK_MS },
        queries: QUERIES,
        wrk: { seconds: WRK_SECONDS, connections: CONNECTIONS, pinned: 'server core 0, wrk core 1' },
      },
      population: {
        seconds: Math.round(population.ms / 100) / 10,
        messages_per_s: Math.round(MESSAGES / (population.ms / 1000)),
      },
      index_lag: { delivered: lag.delivered, found: lag.found, ...summary(lag.lags) },
      query_port: port,
      query_rest: rest,
      rest_list: {
        ...list,
        ratio_to_bare: Number((list.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      },
      rest_get: {
        ...get,
        ratio_to_bare: Number((get.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      },
      bare_node_http: bare,
    };
    const rows: [string, string][] = [
      [
        'population',
        `${results.population.messages_per_s.toLocaleString('en-US')} messages/s (${results.population.seconds} s)`,
      ],
      [
        'index lag',
        `p50 ${results.index_lag.p50_ms} ms  p95 ${results.index_lag.p95_ms} ms  max ${results.index_lag.max_ms} ms  (${lag.found}/${lag.delivered} found; goal p95 ≤ 2000 ms)`,
      ],
      ['query, port', `p50 ${port.all?.p50_ms} ms  p99 ${port.all?.p99_ms} ms`],
      ['query, REST', `p50 ${rest.all?.p50_ms} ms  p99 ${rest.all?.p99_ms} ms`],
      [
        'REST list',
        `${rate(list).toLocaleString('en-US')} req/s  p99 ${list.p99} ms  (${results.rest_list.ratio_to_bare} of bare)`,
      ],
      [
        'REST get',
        `${rate(get).toLocaleString('en-US')} req/s  p99 ${get.p99} ms  (${results.rest_get.ratio_to_bare} of bare)`,
      ],
      ['bare node:http', `${rate(bare).toLocaleString('en-US')} req/s  p99 ${bare.p99} ms`],
    ];
    console.log(
      `\nmail search at ${MESSAGES.toLocaleString('en-US')} messages, ${USERS} users · ${results.machine}`,
    );
    const width = Math.max(...rows.map(([name]) => name.length));
    for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
    console.log('\nqueries by kind (REST, port):');
    for (const kind of QUERY_KINDS) {
      const r = rest[kind.kind];
      const p = port[kind.kind];
      console.log(
        `  ${kind.kind.padEnd(16)}  REST p50 ${r?.p50_ms} p99 ${r?.p99_ms} ms · port p50 ${p?.p50_ms} p99 ${p?.p99_ms} ms`,
      );
    }
    saveResults(results);
  } finally {
    for (const server of servers) server.stop();
    if (process.env.BENCH_KEEP_DATA === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
