// Redis (a server of this file's own) killed and started again EMPTY under load through two api
// processes: each api notices its ranking lost wins (the watermark went back), rebuilds it from
// the win log before serving it again, and every acknowledged win counts exactly once.
import { backend, tempDir } from '@tessera/testkit';
import t from 'tap';
import { SECRET } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { runLoad } from '../helpers/load.ts';
import { startApiProcess } from '../helpers/process.ts';
import { restartablePort } from '../helpers/restartable-port.ts';

t.setTimeout(900_000);

const shared = await distributedServers(t, 'redis_restart');
// No KEEP_DATA: `down` removes the data and `up` starts empty, as a lost Redis would.
const redisSettings = {
  REDIS_PORT: String(await restartablePort()),
  TESSERA_RUN: tempDir(t, 'tessera-redis-'),
};
const noSharedRedis = { ...process.env, REDIS_URL: '' };
let redis = await backend('redis', redisSettings, noSharedRedis);
t.teardown(() => redis.stop());
const env = {
  ...shared.env,
  REDIS_URL: redis.url,
  AUTH_JWT_SECRET: SECRET,
  LEADERBOARD_WRITE_LIMIT_PER_MINUTE: '1000000',
  LEADERBOARD_READ_LIMIT_PER_MINUTE: '1000000',
};
const apis = await Promise.all([
  startApiProcess({ ...env, DATA_DIR: tempDir(t) }),
  startApiProcess({ ...env, DATA_DIR: tempDir(t) }),
]);
t.teardown(() => Promise.all(apis.map((api) => api.stop())));
const headers = await authHeaders(SECRET)(['scores:read']);

async function scores(url: string): Promise<Map<string, number> | number> {
  const response = await fetch(`${url}/v1/scores?limit=100`, { headers });
  if (response.status !== 200) return response.status;
  const top = (await response.json()) as { data: Array<{ user_id: string; score: number }> };
  return new Map(top.data.map((e) => [e.user_id, e.score]));
}

t.test('ranks are rebuilt from the stream; every acknowledged score present, none doubled', async (t) => {
  let restart: Promise<void> | undefined;
  const load = await runLoad({
    urls: apis.map((api) => api.url),
    secret: SECRET,
    wins: 400,
    users: 9,
    workers: 4,
    prefix: 'redis-restart',
    winDeadlineMs: 120_000,
    onAcknowledged(count) {
      if (count !== 100) return;
      restart = (async () => {
        // After a periodic catch-up moved the watermark (every 5 s), so that its loss shows.
        await new Promise((resolve) => setTimeout(resolve, 6_000));
        await redis.stop();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        redis = await backend('redis', redisSettings, noSharedRedis);
      })();
    },
  });
  await restart;
  t.equal(load.acknowledged, 400, 'every win acknowledged in the end');
  t.same(
    load.failures.filter((f) => f.status !== 0 && (f.status !== 503 || f.retryAfter === null)),
    [],
    'what was refused meanwhile was a 503 with Retry-After',
  );
  for (const api of apis) {
    const deadline = Date.now() + 60_000;
    let seen = await scores(api.url);
    while (t.passing() && Date.now() < deadline) {
      if (
        seen instanceof Map &&
        seen.size === load.expected.size &&
        [...load.expected].every(([u, s]) => seen instanceof Map && seen.get(u) === s)
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 500));
      seen = await scores(api.url);
    }
    t.same(seen, load.expected, `every acknowledged win counted once (${api.url})`);
  }
  t.ok(
    apis.some((api) => api.logs.some((line) => line.includes('rebuilding it from the win log'))),
    'an api noticed the lost ranking and rebuilt it',
  );
});
