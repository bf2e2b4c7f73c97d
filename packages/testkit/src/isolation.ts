/**
 * What keeps tests apart: a temporary directory removed after the test, a namespace of their own
 * on a shared server (key prefix, stream, keyspace, index), and a free port for servers that
 * cannot take port 0.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of a tap test these helpers need: somewhere to register clean-up. */
export interface Teardown {
  teardown(fn: () => void | Promise<void>): void;
}

/** A new empty directory, removed when the test ends. */
export function tempDir(t: Teardown, prefix = 'tessera-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A name no other test (in this or another process) uses: lower case letters, digits and `_`,
 * starting with a letter, so it is valid as a Redis key prefix, a NATS stream or subject token,
 * a Cassandra keyspace (≤ 48 characters) and an Elasticsearch index.
 */
export function testNamespace(label = 't'): string {
  const clean = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 20);
  return `${/^[a-z]/.test(clean) ? clean : `t_${clean}`}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** A TCP port free on 127.0.0.1 right now (prefer port 0 where the server allows it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no port'));
        else resolve(address.port);
      });
    });
  });
}
