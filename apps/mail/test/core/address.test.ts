import t from 'tap';
import {
  domainOf,
  isLocalDomain,
  isValidDisplayName,
  isValidEmail,
  isValidUserId,
  normalizeEmail,
} from '../../src/core/address.ts';

t.test('valid and invalid addresses', async (t) => {
  for (const ok of ['a@b.co', 'first.last+tag@mail.example.org', "o'brien@x.io", `${'a'.repeat(64)}@x.io`]) {
    t.ok(isValidEmail(ok), ok);
  }
  for (const bad of [
    '',
    'plain',
    '@x.io',
    'a@',
    'a@localhost',
    'a..b@x.io',
    '.a@x.io',
    'a b@x.io',
    'a@-x.io',
    `${'a'.repeat(65)}@x.io`,
    'a@x.io\r\nBcc: b@y.io',
  ]) {
    t.notOk(isValidEmail(bad), JSON.stringify(bad));
  }
});

t.test('display names cannot smuggle header lines', async (t) => {
  t.ok(isValidDisplayName('Ada Lovelace'));
  t.notOk(isValidDisplayName('Ada\r\nBcc: eve@x.io'));
  t.notOk(isValidDisplayName('x'.repeat(257)));
});

t.test('domains compare case-insensitively, local parts keep their case', async (t) => {
  t.equal(normalizeEmail('Alice@Tessera.LOCAL'), 'Alice@tessera.local');
  t.equal(domainOf('a@Example.ORG'), 'example.org');
  t.ok(isLocalDomain('TESSERA.local', ['tessera.local']));
  t.notOk(isLocalDomain('tessera.local.evil.test', ['tessera.local']));
});

t.test('a user id must be usable as a local part', async (t) => {
  t.ok(isValidUserId('alice'));
  t.notOk(isValidUserId('alice smith'));
  t.notOk(isValidUserId('a@b'));
});
