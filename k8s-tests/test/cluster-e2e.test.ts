/**
 * End to end on the real single-node cluster of tools/cluster.sh (started here when it is not up,
 * and then stopped): `tools/deploy.sh up` (what `make deploy` runs: the backing services, `make
 * images` imported into containerd, `helm upgrade --install` with values-local.yaml, every pod
 * ready) as a release and namespace of this test's own; then, through the ingress on 127.0.0.1:
 * a score posted and read back; an api pod deleted while wins pour in, none lost; a month's end
 * on the operator's moved clock archives the month and the Leaderboard's status says so; a short
 * k6 run; `helm uninstall` leaves nothing behind but the signing Secret kept on purpose.
 */
import { randomBytes } from 'node:crypto';
import { mintToken, PAGES_CSP } from '@tessera/kit';
import { cluster, kubectl, type Cluster } from '@tessera/testkit';
import t from 'tap';
import { deployRelease, readBoard } from './helpers/e2e-release.ts';
import { CHART, helmFor, run } from './helpers/helm.ts';
import { ingressCall } from './helpers/ingress-call.ts';
import { k6ThroughIngress } from './helpers/k6-ingress.ts';
import { untilIn } from './helpers/namespace-wait.ts';

t.setTimeout(3_600_000); // a cold machine builds the cluster's binaries first

const target: Cluster = await cluster();
t.teardown(() => target.stop());

const id = randomBytes(3).toString('hex');
const namespace = `e2e-${id}`;
const release = `e2e-${id}`;
const host = `${namespace}.tessera.test`;
const secret = `e2e-signing-key-${randomBytes(16).toString('hex')}`;
const k = (...args: string[]) => kubectl(target, ['--namespace', namespace, ...args]);
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

const until = untilIn(k);
const call = ingressCall(target.ingressUrl, host);

const writer = await mintToken({
  secret,
  sub: 'e2e-game-server',
  scopes: ['scores:write'],
  ttlSeconds: 3600,
});
const reader = await mintToken({ secret, sub: 'e2e-client', scopes: ['scores:read'], ttlSeconds: 3600 });

const board = () => readBoard(k);

// --- deploy -------------------------------------------------------------------------------------
const { keyspace, withCassandra } = await deployRelease(t, target, { namespace, release, host, secret });
t.comment(`deployed (images, chart, every pod ready) after ${elapsed()}`);

t.test('every pod is ready and the operator reconciled the board', async (t) => {
  const pods = JSON.parse(await k('get', 'pods', '-o', 'json')) as {
    items: { metadata: { name: string }; status: { conditions?: { type: string; status: string }[] } }[];
  };
  const ready = pods.items.filter((p) =>
    p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  t.equal(
    ready.length,
    3,
    `the operator and two api pods are ready (${pods.items.map((p) => p.metadata.name).join(', ')})`,
  );
  await until(
    'the board to report two ready replicas',
    async () => (await board()).status?.readyReplicas === 2,
  );
  const status = (await board()).status;
  t.match(
    status?.currentPeriod ?? '',
    /^\d{4}-\d{2}$/,
    `the current period is recorded (${status?.currentPeriod})`,
  );
  t.ok(
    status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    'its Ready condition is True',
  );
});

t.test('a score posted through the ingress is read back through it', async (t) => {
  // Traefik picks the new Ingress up from its watch: until then the host is a 404 of its own.
  await until(
    `the ingress to route ${host}`,
    async () => (await call(reader, '/v1/scores?limit=1')).status === 200,
    60_000,
  );
  const user = `alice-${id}`;
  const posted = await call(writer, '/v1/scores', { user_id: user, points: 7, match_id: `m-${id}-1` });
  t.equal(posted.status, 200, posted.body);
  const read = await call(reader, `/v1/scores/${user}`);
  t.equal(read.status, 200, read.body);
  t.match(JSON.parse(read.body), { user_info: { user_id: user, score: 7 } });
  t.equal((await call(reader, '/v1/scores?limit=1')).status, 200);
  t.equal((await call('not-a-token', '/v1/scores?limit=1')).status, 401, 'a bad token is refused');
});

t.test(
  'the pages through the ingress, signed in by the development sign-in of the local values',
  async (t) => {
    for (const path of ['/leaderboard/', '/common/api.js', '/common/page.css', '/signin/']) {
      const page = await call('', path);
      t.equal(page.status, 200, path);
      t.equal(page.headers['content-security-policy'], PAGES_CSP, `${path} has the strict CSP`);
    }
    const minted = await call('', '/signin/token', { sub: `pages-${id}`, scopes: ['scores:read'] });
    t.equal(minted.status, 200, minted.body);
    const { token } = JSON.parse(minted.body) as { token: string };
    t.equal((await call(token, '/v1/scores?limit=1')).status, 200, 'its token works through the ingress');
  },
);

t.test('an api pod deleted under load loses no win', async (t) => {
  const user = `steady-${id}`;
  const WINS = 400;
  let retries = 0;
  let deletedAt = -1;
  // Every win has its match id: a retry after a dropped connection is recorded once.
  const post = async (i: number) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await call(writer, '/v1/scores', {
          user_id: user,
          points: 1,
          match_id: `steady-${id}-${i}`,
        });
        if (answer.status === 200) return;
        if (attempt >= 20) throw new Error(`win ${i}: ${answer.status} ${answer.body}`);
      } catch (error) {
        if (attempt >= 20) throw error;
      }
      retries++;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  let next = 0;
  const workers = Array.from({ length: 8 }, async () => {
    while (next < WINS) {
      const i = next++;
      if (i === WINS / 4) {
        const [victim] = (
          await k('get', 'pods', '-l', 'app.kubernetes.io/component=leaderboard-api', '-o', 'name')
        )
          .trim()
          .split('\n');
        await k('delete', victim!, '--wait=false');
        deletedAt = i;
      }
      await post(i);
    }
  });
  await Promise.all(workers);
  t.ok(deletedAt > 0, `an api pod was deleted after ${deletedAt} wins`);
  const read = JSON.parse((await call(reader, `/v1/scores/${user}`)).body) as {
    user_info: { score: number };
  };
  t.equal(read.user_info.score, WINS, `all ${WINS} wins counted (${retries} retries through the deletion)`);
  await until('two ready api pods again', async () => (await board()).status?.readyReplicas === 2);
});

t.test("a month's end on the operator's moved clock archives the month", async (t) => {
  const period = (await board()).status?.currentPeriod ?? '';
  const [year, month] = period.split('-').map(Number) as [number, number];
  // Five seconds before the month's end (UTC, the board's time zone).
  const clockStart = new Date(Date.UTC(year, month, 1) - 5_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const { helm, env } = await helmFor(t);
  await run(
    helm,
    [
      'upgrade',
      release,
      CHART,
      '--namespace',
      namespace,
      '--kubeconfig',
      target.kubeconfig,
      '--reuse-values',
      '--set',
      `operator.clockStart=${clockStart}`,
      '--wait',
      '--timeout',
      '300s',
    ],
    { env },
  );
  await until(
    `${period} to be archived`,
    async () => (await board()).status?.lastArchivedPeriod === period,
    300_000,
  );
  const status = (await board()).status;
  t.equal(status?.lastArchivedPeriod, period, `status.lastArchivedPeriod is ${period}`);
  t.ok(status?.archivedPeriods?.includes(period), 'and it is among the archived periods');
  t.ok(
    status?.conditions?.some((c) => c.type === 'Archived' && c.status === 'True'),
    'the Archived condition is True',
  );
  const job = await k(
    'get',
    'jobs',
    '-l',
    `tessera.dev/period=${period}`,
    '-o',
    'jsonpath={.items[0].status.succeeded}',
  );
  t.equal(job.trim(), '1', 'the archive Job succeeded');
  const events = await k(
    'get',
    'events',
    '--field-selector',
    'reason=Archived',
    '-o',
    'jsonpath={.items[*].message}',
  );
  t.match(events, `${period} is archived`, 'an Event says so');
  const read = JSON.parse((await call(reader, `/v1/scores/alice-${id}?period=${period}`)).body) as {
    user_info?: { score: number };
  };
  t.equal(read.user_info?.score, 7, 'the archived month still answers through the ingress');
});

t.test('a short k6 run through the ingress holds its thresholds', async (t) => {
  const { code, m } = await k6ThroughIngress(t, { namespace, ingressUrl: target.ingressUrl, host, secret });
  t.comment(
    `k6 5 s through the ingress (Traefik → 2 api pods on NATS, Redis, Cassandra; this shared 2-core machine): ` +
      `${m.http_reqs?.count} requests (${(m.http_reqs?.rate ?? 0).toFixed(0)}/s), failed ` +
      `${((m.http_req_failed?.value ?? 0) * 100).toFixed(2)} %, p50 ${(m.http_req_duration?.med ?? 0).toFixed(1)} ms, ` +
      `p99 ${(m.http_req_duration?.['p(99)'] ?? 0).toFixed(1)} ms`,
  );
  t.equal(code, 0, 'the thresholds hold (k6 exit code 0)');
});

t.test('helm uninstall leaves nothing behind but the signing Secret kept on purpose', async (t) => {
  const { helm, env } = await helmFor(t);
  await run(
    helm,
    [
      'uninstall',
      release,
      '--namespace',
      namespace,
      '--kubeconfig',
      target.kubeconfig,
      '--wait',
      '--timeout',
      '300s',
    ],
    { env },
  );
  const left = async () =>
    (
      await k(
        'get',
        'all,leaderboards,jobs,pdb,ingresses,roles,rolebindings,serviceaccounts,configmaps,secrets,leases',
        '-o',
        'name',
      )
    )
      .trim()
      .split('\n')
      .filter(
        (name) =>
          name !== '' &&
          name !== 'serviceaccount/default' &&
          name !== 'configmap/kube-root-ca.crt' &&
          // The operator's leader Lease expires on its own (no owner: the Lease outlives a pod).
          !name.startsWith('lease.coordination.k8s.io/'),
      );
  await until(
    'the namespace to empty',
    async () => (await left()).every((name) => name.startsWith('secret/')),
    180_000,
  );
  t.same(
    await left(),
    [`secret/${release}-tessera-auth`],
    'only the signing Secret stays (helm.sh/resource-policy: keep)',
  );
  const clusterWide = await kubectl(target, ['get', 'clusterroles,clusterrolebindings', '-o', 'name']);
  t.notMatch(clusterWide, release, 'no cluster-wide object of the release');
  const keyspaces = await withCassandra((client) =>
    client.execute('SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?', [keyspace]),
  );
  t.equal(keyspaces.rowLength, 0, "the board's keyspace is dropped by the operator's finalizer");
  t.comment(`the whole run took ${elapsed()}`);
});
