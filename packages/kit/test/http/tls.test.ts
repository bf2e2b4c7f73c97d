import t from 'tap';
import { writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { selfSignedCertificate } from '@tessera/testkit';
import { ConfigError } from '../../src/config.ts';
import { loadTls } from '../../src/http/tls.ts';
import { testApp } from './helpers.ts';

t.test('loadTls: neither, both, one, unreadable', async (t) => {
  const dir = t.testdir();
  t.equal(loadTls(undefined, undefined), undefined);
  t.equal(loadTls('', ''), undefined);
  t.throws(
    () => loadTls('/x/cert.pem', undefined),
    new ConfigError('TLS_KEY_FILE must be set when TLS_CERT_FILE is set'),
  );
  t.throws(
    () => loadTls(undefined, '/x/key.pem'),
    new ConfigError('TLS_CERT_FILE must be set when TLS_KEY_FILE is set'),
  );
  const cert = join(dir, 'c.pem');
  writeFileSync(cert, 'pem');
  t.throws(() => loadTls(cert, join(dir, 'missing.pem')), {
    name: 'ConfigError',
    message: /TLS_KEY_FILE cannot be read: .*missing\.pem \(ENOENT\)/,
  });
  t.same(loadTls(cert, cert), { cert: Buffer.from('pem'), key: Buffer.from('pem') });
});

t.test('with tls the app serves HTTPS', async (t) => {
  const { certFile, keyFile } = selfSignedCertificate(t.testdir());
  const tls = loadTls(certFile, keyFile);
  const app = await testApp({ tls });
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const ca = tls?.cert;

  const body = await new Promise<string>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
  t.same(JSON.parse(body), { status: 'ok' });
});
