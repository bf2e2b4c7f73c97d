/**
 * The search benchmark (bench/search.ts) at its smallest: it finishes, every figure it saves is a
 * positive number, and every message it delivered during the index-lag phase was found. No
 * timing is asserted (the figures depend on the machine and its load).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '@tessera/testkit';
import t from 'tap';

const run = promisify(execFile);
const BENCH = fileURLToPath(new URL('../../bench/search.ts', import.meta.url));

interface Summary {
  count: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

interface Results {
  setup: { messages: number };
  population: { seconds: number; messages_per_s: number };
  index_lag: Summary & { delivered: number; found: number };
  query_port: Record<string, Summary>;
  query_rest: Record<string, Summary>;
  rest_list: Record<string, number>;
  rest_get: Record<string, number>;
  bare_node_http: Record<string, number>;
}

t.test('bench:search at 2,000 messages', async (t) => {
  const dir = tempDir(t);
  await run(process.execPath, ['--conditions=development', '--disable-warning=ExperimentalWarning', BENCH], {
    env: {
      ...process.env,
      BENCH_MESSAGES: '2000',
      BENCH_USERS: '20',
      BENCH_LAG_RATE: '50',
      BENCH_LAG_SECONDS: '2',
      BENCH_QUERIES: '80',
      BENCH_WRK_SECONDS: '1',
      BENCH_CONNECTIONS: '4',
      BENCH_RESULTS_DIR: dir,
    },
    timeout: 240_000,
  });
  const results = JSON.parse(readFileSync(join(dir, 'mail-search.json'), 'utf8')) as Results;
  t.equal(results.setup.messages, 2000);
  t.ok(results.population.seconds > 0 && results.population.messages_per_s > 0, 'population timed');
  t.equal(results.index_lag.delivered, 100, 'delivered 50/s for 2 s');
  t.equal(results.index_lag.found, results.index_lag.delivered, 'every delivered message was found');
  const positive = <T extends object>(
    label: string,
    values: T,
    keys: readonly (keyof T & string)[],
  ): void => {
    for (const key of keys) t.ok(Number(values[key] ?? 0) > 0, `${label} ${key} is positive`);
  };
  const percentiles = ['count', 'p50_ms', 'p95_ms', 'p99_ms', 'max_ms'] as const;
  positive('index lag', results.index_lag, percentiles);
  for (const [label, byKind] of [
    ['port', results.query_port],
    ['REST', results.query_rest],
  ] as const) {
    t.ok(Object.keys(byKind).length >= 9, `${label}: every kind of query ran`);
    for (const [kind, summary] of Object.entries(byKind)) positive(`${label} ${kind}`, summary, percentiles);
  }
  const wrk = ['requests', 'requestsPerSecond', 'p50', 'p99'] as const;
  positive('REST list', results.rest_list, [...wrk, 'ratio_to_bare']);
  positive('REST get', results.rest_get, [...wrk, 'ratio_to_bare']);
  positive('bare node:http', results.bare_node_http, wrk);
  for (const figures of [results.rest_list, results.rest_get, results.bare_node_http])
    t.equal(figures.errors, 0, 'no failed request');
});
