import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A throwaway self-signed certificate and key (PEM files in `dir`, made by openssl) for
 * localhost and 127.0.0.1, valid one day: what a TLS listener under test is configured with.
 */
export function selfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
