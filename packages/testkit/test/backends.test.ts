import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { backend } from '../src/backends.ts';

const run = promisify(execFile);
t.setTimeout(600_000); // a cold machine installs Redis first

/** The pid file tools/backends.sh keeps for a server (TESSERA_RUN, default $TMPDIR/tessera-backends). */
const pidFile = (name: string) =>
  join(process.env.TESSERA_RUN ?? join(process.env.TMPDIR ?? tmpdir(), 'tessera-backends'), `${name}.pid`);

t.test(
  'a server whose port is taken is a failure that says so, not a test against the wrong server',
  async (t) => {
    const squatter = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => squatter.once('listening', resolve));
    t.teardown(() => squatter.close());
    const { port } = squatter.address() as AddressInfo;
    await t.rejects(backend('redis', { REDIS_PORT: String(port) }, { ...process.env, REDIS_URL: '' }), {
      message: new RegExp(`redis: 127[.]0[.]0[.]1:${port} is already in use [(].*REDIS_PORT[)]`),
    });
  },
);

t.test('a server that exits at start is a failure with its log', async (t) => {
  // Redis refuses an unknown option and exits: the script must notice and show why.
  await t.rejects(
    backend(
      'redis',
      { REDIS_PORT: '16390' },
      { ...process.env, REDIS_URL: '', PATH: `${fakeRedis(t)}:${process.env.PATH}` },
    ),
    { message: /fake redis: refusing to start[\s\S]*redis exited before it answered on 127\.0\.0\.1:16390/ },
  );
});

t.test('down stops the server and everything it spawned', async (t) => {
  const server = await backend('redis', {}, { ...process.env, REDIS_URL: '' });
  const pid = Number(readFileSync(pidFile('redis'), 'utf8'));
  t.ok(alive(pid), 'running after up');
  await server.stop();
  t.notOk(alive(pid), 'gone after down');
  const { stdout } = await run('bash', [
    new URL('../../../tools/backends.sh', import.meta.url).pathname,
    'status',
  ]);
  t.match(stdout, /^redis: stopped$/m);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A directory holding a `redis-server` that complains and exits, to put first on PATH. */
function fakeRedis(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-fake-redis-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'redis-server');
  writeFileSync(script, '#!/bin/sh\necho "fake redis: refusing to start" >&2\nexit 1\n');
  chmodSync(script, 0o755);
  return dir;
}
