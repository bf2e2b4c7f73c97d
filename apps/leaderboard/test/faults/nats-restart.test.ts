// NATS (a server of this file's own, data kept) stopped and started again under load through two
// api processes: while it is down /readyz says so and a POST is refused at once (503 problem with
// Retry-After, a coded error); afterwards the retries (same match_id) go through; every
// acknowledged win counts once.
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

/** Polls until `api`'s /readyz names NATS as degraded (bounded). */
async function untilNatsDegraded(url: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const ready = (await (await fetch(`${url}/readyz`)).json()) as { degraded?: Record<string, string> };
    const why = Object.values(ready.degraded ?? {}).find((text) => text.includes('nats'));
    if (why !== undefined) return why;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url}/readyz never named NATS as degraded`);
}

/** The longest the NATS client holds a publish while it reconnects (the win log's publish timeout). */
const CLIENT_HOLD_MS = 5_000;

interface Probe {
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfter: string | null;
  readonly ms: number;
}

t.test('POSTs are refused at once while NATS is down and count once after', async (t) => {
  const writeHeaders = {
    ...(await authHeaders(SECRET)(['scores:write'])),
    'content-type': 'application/json',
  };
  const probeWin = (n: number) =>
    JSON.stringify({ user_id: `probe-${n}`, points: 5, match_id: `nats-restart-probe-${n}` });
  const readHeaders = await authHeaders(SECRET)(['scores:read']);
  const probes: Probe[] = [];
  const readsWhileDown: number[] = [];
  let reasons: string[] = [];
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
      // The load waits until NATS is down and both apis know it, then probes them, then goes on
      // against NATS coming back.
      await nats.stop();
      reasons = await Promise.all(apis.map((api) => untilNatsDegraded(api.url)));
      for (let n = 0; n < 10; n++) {
        const api = apis[n % apis.length]!;
        const started = performance.now();
        const response = await fetch(`${api.url}/v1/scores`, {
          method: 'POST',
          headers: writeHeaders,
          body: probeWin(n),
        });
        const body = (await response.json()) as { code?: string };
        probes.push({
          status: response.status,
          code: body.code,
          retryAfter: response.headers.get('retry-after'),
          ms: performance.now() - started,
        });
      }
      for (const api of apis) {
        readsWhileDown.push((await fetch(`${api.url}/v1/scores?limit=10`, { headers: readHeaders })).status);
        readsWhileDown.push((await fetch(`${api.url}/v1/scores/user-1`, { headers: readHeaders })).status);
      }
      restart = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        nats = await backend('nats', natsSettings, noSharedNats);
      })();
    },
  });
  await restart;
  t.equal(load.acknowledged, 300, 'every win acknowledged in the end');
  for (const why of reasons) t.match(why, /disconnected|reconnecting/, '/readyz names NATS and why');

  // While NATS is down the client would hold a publish until it reconnects or times out; the win
  // log refuses before asking it, so every probe is a coded 503 answered without that wait.
  t.same(
    probes.map((p) => [p.status, p.code, p.retryAfter !== null]),
    Array.from({ length: 10 }, () => [503, 'LB_STORE_UNAVAILABLE', true]),
    'every POST while NATS is down: 503 LB_STORE_UNAVAILABLE with Retry-After',
  );
  t.ok(
    probes.every((p) => p.ms < CLIENT_HOLD_MS),
    `refused without waiting for the client to give up (slowest ${Math.round(Math.max(...probes.map((p) => p.ms)))} ms)`,
  );
  t.same(readsWhileDown, [200, 200, 200, 200], 'reads (Redis only) answer while NATS is down');
  const refused = load.failures.filter((f) => f.status !== 0);
  t.comment(`${refused.length} POSTs of the load were refused while NATS was down`);
  t.same(
    refused.filter((f) => f.status !== 503 || !/^(LB|KIT)_/.test(f.code ?? '') || f.retryAfter === null),
    [],
    'each refusal of the load a coded 503 with Retry-After',
  );

  // The probes' retries (same match ids, twice) count once each.
  for (let attempt = 0; attempt < 2; attempt++) {
    for (let n = 0; n < 10; n++) {
      const response = await fetch(`${apis[(n + attempt) % apis.length]!.url}/v1/scores`, {
        method: 'POST',
        headers: writeHeaders,
        body: probeWin(n),
      });
      t.equal(response.status, 200, `probe ${n} retried (attempt ${attempt + 1})`);
    }
  }

  for (const api of apis) {
    const top = (await (await fetch(`${api.url}/v1/scores?limit=100`, { headers: readHeaders })).json()) as {
      data: Array<{ user_id: string; score: number }>;
    };
    const expected = new Map(load.expected);
    for (let n = 0; n < 10; n++) expected.set(`probe-${n}`, 5);
    t.same(
      new Map(top.data.map((e) => [e.user_id, e.score])),
      expected,
      `every acknowledged win counted once (${api.url})`,
    );
  }
});
