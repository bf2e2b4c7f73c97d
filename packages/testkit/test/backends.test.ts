import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { backend } from '../src/backends.ts';

const run = promisify(execFile);
const BACKENDS = fileURLToPath(new URL('../../../tools/backends.sh', import.meta.url));
t.setTimeout(600_000); // a cold machine installs Redis and nginx first

/**
 * Settings that give a test its own run directory (pid files, logs, data) and ports, so that it
 * neither sees nor stops servers that a developer or another test left running.
 */
function isolated(t: Test, ports: Record<string, number>): Record<string, string> {
  const run = mkdtempSync(join(tmpdir(), 'tessera-run-'));
  t.teardown(() => rmSync(run, { recursive: true, force: true }));
  return { TESSERA_RUN: run, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
}
const fresh = { ...process.env, REDIS_URL: '', NGINX_URL: '' };

t.test(
  'a server whose port is taken is a failure that says so, not a test against the wrong server',
  async (t) => {
    const squatter = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => squatter.once('listening', resolve));
    t.teardown(() => squatter.close());
    const { port } = squatter.address() as AddressInfo;
    await t.rejects(backend('redis', isolated(t, { REDIS_PORT: port }), fresh), {
      message: new RegExp(`redis: 127[.]0[.]0[.]1:${port} is already in use [(].*REDIS_PORT[)]`),
    });
  },
);

t.test('a server that exits at start is a failure with its log, and leaves nothing', async (t) => {
  // This redis-server complains and exits: the script must notice and show why.
  const settings = isolated(t, { REDIS_PORT: 16390 });
  await t.rejects(
    backend('redis', settings, {
      ...fresh,
      PATH: `${fakeServer(t, 'echo "fake redis: refusing to start" >&2\nexit 1\n')}:${process.env.PATH}`,
    }),
    {
      message: /fake redis: refusing to start[\s\S]*redis exited before it answered on 127\.0\.0\.1:16390/,
    },
  );
  const { stdout } = await run('bash', [BACKENDS, 'status'], { env: { ...process.env, ...settings } });
  t.match(stdout, /^redis: stopped$/m);
});

t.test('down stops the server and every process it spawned', async (t) => {
  // This redis-server leaves a child behind (as a JVM launcher or a master/worker server may) and
  // then serves the port itself: only stopping the whole process group gets rid of the child.
  const settings = isolated(t, { REDIS_PORT: 16393 });
  const bin = fakeServer(t, 'sleep 600 &\nexec python3 -m http.server "$2" --bind 127.0.0.1\n');
  const server = await backend('redis', settings, { ...fresh, PATH: `${bin}:${process.env.PATH}` });
  t.teardown(() => server.stop());
  const group = Number(readFileSync(join(settings.TESSERA_RUN!, 'redis.pid'), 'utf8'));
  const members = await processGroup(group);
  t.equal(members.length, 2, `the server and its child run (${members.join(', ')})`);
  await server.stop();
  t.same(await processGroup(group), [], 'the whole group is gone');
});

t.test(
  'a server left running by an earlier `up` is reused and left running; other settings are refused',
  async (t) => {
    const settings = isolated(t, { REDIS_PORT: 16391 });
    const first = await backend('redis', settings, fresh);
    t.teardown(() => first.stop());
    const second = await backend('redis', settings, fresh);
    t.equal(second.url, first.url);
    await second.stop(); // did not start it: a no-op
    const again = await backend('redis', settings, fresh);
    t.equal(again.url, 'redis://127.0.0.1:16391', 'still running after the reuser stopped');
    await t.rejects(backend('redis', { ...settings, REDIS_PORT: '16392' }, fresh), {
      message: /redis is already running with other settings \(port 16391, not port 16392\)/,
    });
  },
);

/** The pids in a process group (empty when none is left). */
async function processGroup(group: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-e', '-o', 'pid=,pgid=']);
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, pgid]) => pgid === group)
    .map(([pid]) => pid!);
}

/** A directory holding a `redis-server` running `body` (sh; $2 is the port), to put first on PATH. */
function fakeServer(t: Test, body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-fake-redis-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'redis-server');
  writeFileSync(script, `#!/bin/sh\n${body}`);
  chmodSync(script, 0o755);
  return dir;
}
