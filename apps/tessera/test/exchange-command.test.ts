import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import t, { type Test } from 'tap';
import { main } from '../src/cli.ts';
import { startPlatform } from '../src/platform.ts';

// Each case starts the whole platform (every service, its threads) several times: on two busy
// cores that passes tap's default 30 s.
t.setTimeout(120_000);

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-deposit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What the command prints with console.log (tap itself writes to stdout). */
function captureLog(t: Test): string[] {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.join(' '));
  t.teardown(() => {
    console.log = log;
  });
  return lines;
}

function capture(t: Test, stream: NodeJS.WriteStream): string[] {
  const lines: string[] = [];
  const write = stream.write.bind(stream);
  stream.write = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  t.teardown(() => {
    stream.write = write;
  });
  return lines;
}

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

const baseEnv = (dir: string, port = '0') => ({
  PORT: port,
  SMTP_PORT: '0',
  FIX_PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  EXCHANGE_HOURS: 'always',
});

async function accountOf(url: string, dir: string, sub: string): Promise<Record<string, unknown>> {
  const token = await mintToken({ secret: loadOrCreateSecret(dir), sub, scopes: ['trade'] });
  const res = await fetch(`${url}/v1/accounts/me`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as Record<string, unknown>;
}

t.test('tessera exchange deposit goes through the REST route of a running platform', async (t) => {
  const dir = dataDir(t);
  const env = baseEnv(dir);
  const platform = await startPlatform({ env, handleSignals: false });
  t.teardown(() => platform.close());
  const stdout = captureLog(t);
  const code = await main(
    [
      'exchange',
      'deposit',
      '--account',
      'alice',
      '--cash',
      '5000',
      '--shares',
      'AAPL=10',
      '--url',
      platform.url,
    ],
    env,
  );
  t.equal(code, 0);
  t.match(JSON.parse(stdout.join('')), { account: 'alice', cash: { available: 5000 } });
  t.match(await accountOf(platform.url, dir, 'alice'), {
    cash: { available: 5000, reserved: 0 },
    shares: { AAPL: { available: 10 } },
  });
  const stderr = capture(t, process.stderr);
  t.equal(
    await main(['exchange', 'deposit', '--account', 'bob', '--shares', 'ZZZ=1', '--url', platform.url], env),
    1,
  );
  t.match(stderr.join(''), /refused \(400\).*EX_UNKNOWN_SYMBOL/);
});

t.test('with no platform answering, the deposit is refused and names --offline', async (t) => {
  const dir = dataDir(t);
  const env = baseEnv(dir, String(await closedPort()));
  const stderr = capture(t, process.stderr);
  t.equal(await main(['exchange', 'deposit', '--account', 'carol', '--cash', '700'], env), 1);
  t.match(stderr.join(''), /no platform answers at http:\/\/127\.0\.0\.1:\d+\..*--offline/);
});

t.test('--offline puts the deposit into the journal and the platform replays it', async (t) => {
  const dir = dataDir(t);
  const env = baseEnv(dir, String(await closedPort()));
  const stdout = captureLog(t);
  const stderr = capture(t, process.stderr);
  t.equal(await main(['exchange', 'deposit', '--account', 'carol', '--cash', '700', '--offline'], env), 0);
  t.match(stderr.join(''), /the deposit went into the journal under DATA_DIR/);
  t.match(JSON.parse(stdout.join('')), { account: 'carol', cash: { available: 700 } });
  const platform = await startPlatform({ env: { ...env, PORT: '0' }, handleSignals: false });
  t.teardown(() => platform.close());
  t.match(await accountOf(platform.url, dir, 'carol'), { cash: { available: 700 } });
});

t.test('bad arguments are usage errors', async (t) => {
  const stderr = capture(t, process.stderr);
  const env = baseEnv(dataDir(t));
  t.equal(await main(['exchange', 'deposit', '--cash', '5'], env), 2);
  t.equal(await main(['exchange', 'deposit', '--account', 'a'], env), 2);
  t.equal(await main(['exchange', 'deposit', '--account', 'a', '--cash', '-5'], env), 2);
  t.equal(await main(['exchange', 'deposit', '--account', 'a', '--shares', 'AAPL'], env), 2);
  t.equal(await main(['exchange', 'withdraw'], env), 2);
  t.equal(
    await main(['exchange', 'deposit', '--account', 'a', '--cash', '5', '--offline', '--url', 'x'], env),
    2,
  );
  t.match(stderr.join(''), /deposit needs --account/);
});
