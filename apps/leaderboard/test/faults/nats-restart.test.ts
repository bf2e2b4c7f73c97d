// NATS (a server of this file's own, data kept) stopped and started again under load through two
// api processes: while it is down a POST fails cleanly (503 problem with Retry-After, a coded
// error); afterwards the retries (same match_id) go through; every acknowledged win counts once.
import { backend, tempDir } from '@tessera/testkit';
import t from 'tap';
import { SECRET } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { runLoad } from '../helpers/load.ts';
import { startApiProcess } from '../helpers/process.ts';
import { restartablePort } from '../helpers/restartable-port.ts';

t.setTimeout(900_000);

const shared = await distributedServers(t, 'nats_restart');
const natsSettings = {
  NATS_PORT: String(await restartablePort()),
  TESSERA_RUN: tempDir(t, 'tessera-nats-'),
  KEEP_DATA: '1',
};
const noSharedNats = { ...process.env, NATS_URL: '' };
let nats = await backend('nats', natsSettings, noSharedNats);
t.teardown(() => nats.stop());
const env = {
  ...shared.env,
  NATS_URL: nats.url,
  AUTH_JWT_SECRET: SECRET,
  LEADERBOARD_WRITE_LIMIT_PER_MINUTE: '1000000',
};
const apis = await Promise.all([
  startApiProcess({ ...env, DATA_DIR: tempDir(t) }),
  startApiProcess({ ...env, DATA_DIR: tempDir(t) }),
]);
t.teardown(() => Promise.all(apis.map((api) => api.stop())));

t.test('POSTs fail cleanly while NATS is down and count once after', async (t) => {
  let restart: Promise<void> | undefined;
  const load = await runLoad({
    urls: apis.map((api) => api.url),
    secret: SECRET,
    wins: 300,
    users: 7,
    workers: 4,
    prefix: 'nats-restart',
    winDeadlineMs: 120_000,
    async onAcknowledged(count) {
      if (count !== 100) return;
      // The load waits until NATS is down, then goes on against it while the restart runs.
      await nats.stop();
      restart = (async () => {
        // The client holds a request while it reconnects, up to its timeout (a publish: at most
        // 5 s): down for longer than that, the POSTs in flight are certainly refused.
        await new Promise((resolve) => setTimeout(resolve, 8_000));
        nats = await backend('nats', natsSettings, noSharedNats);
      })();
    },
  });
  await restart;
  t.equal(load.acknowledged, 300, 'every win acknowledged in the end');
  const refused = load.failures.filter((f) => f.status !== 0);
  // How many are refused depends on timing: the NATS client holds a request while it reconnects,
  // so a POST may wait for NATS to come back instead of failing fast (runs here saw 0 to 4 refusals
  // of 300, the rest waited). Failing fast while disconnected is not done (docs/leaderboard.md);
  // what must hold every time is below: each refusal is a coded 503, and every win counts once.
  t.comment(`${refused.length} POSTs were refused while NATS was down`);
  t.same(
    refused.filter((f) => f.status !== 503 || !/^(LB|KIT)_/.test(f.code ?? '') || f.retryAfter === null),
    [],
    'each a coded 503 with Retry-After',
  );

  const headers = await authHeaders(SECRET)(['scores:read']);
  for (const api of apis) {
    const top = (await (await fetch(`${api.url}/v1/scores?limit=100`, { headers })).json()) as {
      data: Array<{ user_id: string; score: number }>;
    };
    t.same(
      new Map(top.data.map((e) => [e.user_id, e.score])),
      load.expected,
      `every acknowledged win counted once (${api.url})`,
    );
  }
});
