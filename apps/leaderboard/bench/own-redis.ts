/**
 * Redis servers of a benchmark's own (never the shared one): free ports, a temp dir, no
 * persistence; `stop()` ends them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export interface OwnRedis {
  readonly port: number;
  readonly client: Redis;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  const stop = async () => {
    client.disconnect();
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect();
      return { port, client, stop };
    } catch (error) {
      client.disconnect();
      if (attempt >= 50) {
        await stop();
        throw error;
      }
      await sleep(50);
    }
  }
}
