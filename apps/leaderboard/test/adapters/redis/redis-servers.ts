/**
 * Redis servers of a test's own (the shared one on REDIS_URL is never stopped or restarted):
 * each on a free port, in a temp dir, without persistence, stopped in teardown.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, tempDir, type Teardown } from '@tessera/testkit';
import { Redis } from 'ioredis';

export async function startRedisServers(t: Teardown, count: number): Promise<Redis[]> {
  return Promise.all(Array.from({ length: count }, () => startRedisServer(t)));
}

async function startRedisServer(t: Teardown): Promise<Redis> {
  const port = await freePort();
  const dir = tempDir(t, 'tessera-redis-');
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  t.teardown(async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  });
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
  // Refused while the server starts: the loop below retries; later errors fail the commands.
  redis.on('error', () => undefined);
  for (let attempt = 0; ; attempt++) {
    try {
      await redis.connect();
      break;
    } catch (error) {
      redis.disconnect();
      if (attempt >= 50) throw error;
      await sleep(50);
    }
  }
  t.teardown(() => redis.disconnect());
  return redis;
}
