import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { tool } from '../src/tools.ts';

const run = promisify(execFile);
t.setTimeout(900_000); // a cold machine builds k6 first (go install, a minute or two)

t.test('k6 runs a script against a local port, and its thresholds decide the exit code', async (t) => {
  const k6 = await tool('k6');
  const { stdout: version } = await run(k6, ['version']);
  t.match(version, /k6 v1\./);

  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.setHeader('content-type', 'application/json');
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const dir = mkdtempSync(join(tmpdir(), 'tessera-k6-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'smoke.js');
  writeFileSync(
    script,
    `import http from 'k6/http';
import { check } from 'k6';
export const options = { vus: 2, iterations: 20, thresholds: { checks: ['rate==1'] } };
export default function () {
  const res = http.get(__ENV.TARGET);
  check(res, { 'status is 200': (r) => r.status === 200 });
}
`,
  );
  const env = { ...process.env, TARGET: url, K6_NO_USAGE_REPORT: 'true' };
  await run(k6, ['run', '--quiet', '--no-color', script], { env });
  t.equal(hits, 20, 'every iteration reached the server');

  // The same script against a port with nothing behind it must fail its threshold.
  const dead = await run(k6, ['run', '--quiet', '--no-color', script], {
    env: { ...env, TARGET: 'http://127.0.0.1:9/' },
  }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
  t.not(dead, 0, 'a failed threshold is a non-zero exit');
});
