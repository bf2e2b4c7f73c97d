import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

// The REST benchmark at its smallest, as `make bench` runs it: it must finish and report every
// figure, so that it cannot rot between the runs that measure.
t.setTimeout(120_000);
const BENCH = fileURLToPath(new URL('../../bench/http.ts', import.meta.url));

t.test('the REST benchmark runs and reports orders, reads and the baseline', async (t) => {
  const results = mkdtempSync(join(tmpdir(), 'ex-bench-results-'));
  t.teardown(() => rmSync(results, { recursive: true, force: true }));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', BENCH],
    {
      env: {
        ...process.env,
        BENCH_RUNS: '1',
        BENCH_SECONDS: '1',
        BENCH_ACCOUNTS: '4',
        BENCH_CONNECTIONS: '4',
        BENCH_RESULTS_DIR: results,
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  t.match(stdout, /orders \(POST \/v1\/order, goal ≥ 0\.6\) .* errors 0 .*of bare node:http/);
  t.match(stdout, /order reads \(GET \/v1\/order\/\{id\}\) .* errors 0/);
  const saved = JSON.parse(readFileSync(join(results, 'exchange-http.json'), 'utf8')) as {
    ratios: Record<string, number>;
    medians: Record<string, { requests: number }>;
  };
  for (const kind of ['orders', 'orderReads', 'book']) t.ok(saved.ratios[kind]! > 0, `${kind} ratio`);
  t.ok(saved.medians.orders!.requests > 0);
});
