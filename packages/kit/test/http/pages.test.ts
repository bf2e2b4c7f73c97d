import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '@tessera/testkit';
import { PAGES_CSP, installPages, isPagePrefix } from '../../src/http/pages.ts';
import { testApp } from './helpers.ts';

function site(t: Parameters<typeof tempDir>[0]): string {
  const root = tempDir(t);
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>mail</title>');
  writeFileSync(join(root, 'app.js'), 'export {};');
  writeFileSync(join(root, '.secret'), 'no');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'sub', 'a.css'), 'body{}');
  return root;
}

t.test('pages are served under their prefix with a strict CSP', async (t) => {
  const app = await testApp();
  await installPages(app, [
    { prefix: '/mail/', root: site(t) },
    { prefix: '/other/', root: pathToFileURL(`${site(t)}/`) },
  ]);
  t.teardown(() => app.close());

  const index = await app.inject('/mail/');
  t.equal(index.statusCode, 200);
  t.match(index.headers['content-type'], /^text\/html/);
  t.equal(index.headers['content-security-policy'], PAGES_CSP);
  t.equal(index.headers['x-content-type-options'], 'nosniff');
  t.match(PAGES_CSP, /default-src 'self'/);
  t.notMatch(PAGES_CSP, /unsafe-inline|unsafe-eval/);

  const script = await app.inject('/other/app.js');
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /javascript/);
  t.equal(script.headers['content-security-policy'], PAGES_CSP);
  t.equal((await app.inject('/mail/sub/a.css')).statusCode, 200);

  const bare = await app.inject('/mail');
  t.equal(bare.statusCode, 301, 'the folder without its slash redirects');
  t.equal(bare.headers.location, '/mail/');

  t.not((await app.inject('/mail/.secret')).statusCode, 200, 'no dotfiles');
  t.equal((await app.inject('/mail/missing.js')).statusCode, 404);
  t.equal((await app.inject('/mail/../package.json')).statusCode, 404, 'no way out of the folder');
  t.equal((await app.inject('/docs/openapi.json')).json().paths['/mail/*'], undefined, 'not in OpenAPI');
});

t.test('a prefix is one lower-case path segment', async (t) => {
  t.ok(isPagePrefix('/exchange/'));
  for (const bad of ['/mail', 'mail/', '/', '/a/b/', '/Mail/']) t.notOk(isPagePrefix(bad), bad);
  const app = await testApp();
  t.teardown(() => app.close());
  await t.rejects(installPages(app, [{ prefix: '/a/b/', root: '/tmp' }]), /one lower-case path segment/);
});
