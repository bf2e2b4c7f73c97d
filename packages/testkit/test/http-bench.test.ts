import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  BASELINE_SERVER,
  ensureWrk,
  figuresRow,
  median,
  medianOf,
  medianRatio,
  runWrk,
  startPinned,
  type Figures,
} from '../src/http-bench.ts';

const figures = (requestsPerSecond: number, p99 = 1): Figures => ({
  requests: requestsPerSecond,
  requestsPerSecond,
  cpuMicros: 10,
  p50: 0.5,
  p90: 0.9,
  p99,
  p999: 2,
  max: 3,
  errors: 0,
});

t.test('medians of figures and of ratios', async (t) => {
  t.equal(median([3, 1, 2]), 2);
  t.equal(median([4, 1, 3, 2]), 2.5);
  const runs = [figures(100, 9), figures(300, 1), figures(200, 5)];
  t.match(medianOf(runs), { requestsPerSecond: 200, p99: 5 });
  // Each round against its own baseline: 0.5, 1.5, 1.0.
  t.equal(medianRatio(runs, [figures(200), figures(200), figures(200)]), 1);
  t.match(figuresRow(figures(1234.4)), /1,234 req\/s .* p99 1 ms .* errors 0/);
});

t.test('the bare node:http yardstick under wrk, pinned as the benchmarks run it', async (t) => {
  ensureWrk();
  const dir = mkdtempSync(join(tmpdir(), 'tessera-http-bench-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startPinned([BASELINE_SERVER], process.env);
  t.teardown(() => server.stop());
  const result = runWrk({
    dir,
    server,
    title: 'yardstick',
    setup: 'local n = 0',
    request: 'request = function() return wrk.format("GET", "/") end',
    seconds: 1,
    connections: 2,
  });
  t.ok(result.requests > 100, `${result.requests} requests answered`);
  t.equal(result.errors, 0);
  t.ok(result.cpuMicros > 0, 'the server used CPU, read from /proc');
  const answer = await fetch(server.url);
  t.equal(answer.status, 200);
  t.match(await answer.json(), { user_info: { rank: 1 } });
});
