import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthenticator, loadOrCreateSecret } from '@tessera/kit';
import t, { type Test } from 'tap';
import { main } from '../src/cli.ts';

function capture(t: Test) {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (line: string) => out.push(line);
  console.error = (line: string) => err.push(line);
  t.teardown(() => {
    console.log = log;
    console.error = error;
  });
  return { out, err };
}

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test(
  'tessera token prints a token the platform accepts, signed with the secret kept in DATA_DIR',
  async (t) => {
    const dir = dataDir(t);
    const { out } = capture(t);
    const code = await main(
      ['token', '--sub', 'game-1', '--scope', 'scores:write scores:read', '--data-dir', dir],
      {},
    );
    t.equal(code, 0);
    const token = out[0]!;
    const secret = loadOrCreateSecret(dir);
    const principal = await createAuthenticator({ secret }).verify(token);
    t.equal(principal.sub, 'game-1');
    t.same([...principal.scopes].sort(), ['scores:read', 'scores:write']);
  },
);

t.test('AUTH_JWT_SECRET wins over the generated secret', async (t) => {
  const secret = 'an-operator-chosen-secret-of-enough-length-123';
  const { out } = capture(t);
  await main(['token', '--sub', 'x', '--scope', 'scores:read'], {
    AUTH_JWT_SECRET: secret,
    DATA_DIR: dataDir(t),
  });
  t.equal((await createAuthenticator({ secret }).verify(out[0]!)).sub, 'x');
});

t.test('usage errors are clear and exit 2', async (t) => {
  const { err } = capture(t);
  t.equal(await main(['token', '--scope', 'scores:read'], {}), 2);
  t.match(err.at(-1), /--sub/);
  t.equal(await main(['token', '--sub', 'a'], {}), 2);
  t.match(err.at(-1), /--scope/);
  t.equal(await main(['token', '--sub', 'a', '--scope', 's', '--ttl', 'soon'], {}), 2);
  t.match(err.at(-1), /--ttl/);
  t.equal(await main(['launch'], {}), 2);
  t.match(err.at(-1), /unknown command "launch"/);
});

t.test('help and version', async (t) => {
  const { out } = capture(t);
  t.equal(await main(['--help'], {}), 0);
  t.match(out.join('\n'), /Usage: tessera/);
  t.equal(await main(['version'], {}), 0);
  t.match(out.at(-1), /^\d+\.\d+\.\d+$/);
});

t.test('tessera run names the services and roles it knows', async (t) => {
  const { err } = capture(t);
  t.equal(await main(['run'], {}), 2);
  t.match(err.at(-1), /run needs <service> <role>.*\n.*leaderboard: api, archiver/s);
  t.equal(await main(['run', 'billing', 'api'], {}), 2);
  t.match(err.at(-1), /leaderboard: api, archiver/);
  // A name every object has is not a service either.
  t.equal(await main(['run', 'constructor', 'api'], {}), 2);
  t.match(err.at(-1), /run needs <service> <role>/);
  t.equal(await main(['run', 'leaderboard', 'janitor'], { DATA_DIR: dataDir(t) }), 2);
  t.match(err.at(-1), /leaderboard has no role "janitor" \(its roles: api, archiver\)/);
});

t.test('the archiver cannot run apart on embedded stores, and says why', async (t) => {
  const { err } = capture(t);
  const code = await main(['run', 'leaderboard', 'archiver'], {
    DATA_DIR: dataDir(t),
    PORT: '0',
    SMTP_PORT: '0',
    FIX_PORT: '0',
    LOG_LEVEL: 'silent',
  });
  t.equal(code, 2);
  t.match(err.at(-1), /archiver role runs in a process of its own only on shared stores/);
});
