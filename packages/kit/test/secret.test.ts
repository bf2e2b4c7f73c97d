import t from 'tap';
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../src/config.ts';
import { loadOrCreateSecret } from '../src/secret.ts';

t.test('the environment wins', async (t) => {
  const dir = t.testdir();
  t.equal(loadOrCreateSecret(dir, 'from-env'), 'from-env');
  t.throws(() => statSync(join(dir, 'auth')), 'nothing is written');
});

t.test('a secret is created once (0600) and reused', async (t) => {
  const dir = join(t.testdir(), 'nested', 'data');
  const first = loadOrCreateSecret(dir);
  t.match(first, /^[0-9a-f]{64}$/);
  const file = join(dir, 'auth', 'jwt-secret');
  t.equal(statSync(file).mode & 0o777, 0o600);
  t.equal(readFileSync(file, 'utf8'), first);
  t.equal(loadOrCreateSecret(dir), first, 'reused');
  t.equal(loadOrCreateSecret(dir, ''), first, 'an empty variable counts as unset');
});

t.test('an existing short secret is refused', async (t) => {
  const dir = t.testdir();
  mkdirSync(join(dir, 'auth'));
  writeFileSync(join(dir, 'auth', 'jwt-secret'), 'short\n');
  t.throws(() => loadOrCreateSecret(dir), ConfigError);
});
