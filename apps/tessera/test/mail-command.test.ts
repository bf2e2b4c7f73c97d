import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, mintToken } from '@tessera/kit';
import t, { type Test } from 'tap';
import { main } from '../src/cli.ts';
import { startPlatform } from '../src/platform.ts';

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-mail-users-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captureStdout(t: Test): string[] {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  t.teardown(() => {
    console.log = log;
  });
  return lines;
}

t.test('tessera mail users add makes the mailbox with its folders, once', async (t) => {
  const dir = dataDir(t);
  const env = { PORT: '0', SMTP_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, LOG_LEVEL: 'silent' };
  const out = captureStdout(t);
  t.equal(await main(['mail', 'users', 'add', 'alice'], env), 0);
  t.equal(await main(['mail', 'users', 'add', 'alice', '--type', 'business'], env), 0);
  t.match(
    out[0],
    /^alice@tessera\.local: created \(personal; folders Inbox, All, Archive, Drafts, Flagged, Junk, Sent, Trash\)$/,
  );
  t.match(out[1], /^alice@tessera\.local: already there \(business;/);

  // The platform sees the mailbox: SMTP mail to alice would be accepted, and her folders are there.
  const platform = await startPlatform({ env, handleSignals: false });
  t.teardown(() => platform.close());
  const token = await mintToken({ secret: loadOrCreateSecret(dir), sub: 'alice', scopes: ['mail'] });
  const res = await fetch(`${platform.url}/v1/folders`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(((await res.json()) as unknown[]).length, 8);
});

t.test('tessera mail users add refuses a bad id, a bad type, a missing id', async (t) => {
  const env = { DATA_DIR: dataDir(t), LOG_LEVEL: 'silent' };
  const errors: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
  };
  t.teardown(() => {
    console.error = error;
  });
  t.equal(await main(['mail', 'users', 'add', 'not an id'], env), 2);
  t.equal(await main(['mail', 'users', 'add', 'bob', '--type', 'gold'], env), 2);
  t.equal(await main(['mail', 'users', 'add'], env), 2);
  t.equal(await main(['mail', 'users'], env), 2);
  t.match(
    errors.join('\n'),
    /cannot be a mailbox name[\s\S]*--type is personal or business[\s\S]*exactly one <id>[\s\S]*mail needs a command/,
  );
});
