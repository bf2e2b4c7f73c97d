/**
 * The chart's RBAC is enough, and no more: its ServiceAccount, (Cluster)Role and bindings, rendered
 * by helm and applied to a real API server (RBAC on), and the operator run with that
 * ServiceAccount's token — it must reconcile a board through a month's end and its deletion; it
 * must not read Secrets.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ApiException,
  ApiextensionsV1Api,
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  loadAllYaml,
  loadYaml,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { createLogger, MovableClock, startOperator } from '@tessera/operator';
import { backend, pollUntil } from '@tessera/testkit';
import t from 'tap';
import { CHART, helmFor, run } from './helpers/helm.ts';

t.setTimeout(900_000);

const CRD = fileURLToPath(new URL('../../crds/leaderboards.tessera.dev.yaml', import.meta.url));
const LEADERBOARDS = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards' };
const RBAC_KINDS = new Set(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const until = (what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> =>
  pollUntil(what, check, { ms, intervalMs: 150 });

t.test("the operator works with the chart's RBAC, and reads no Secret", async (t) => {
  const server = await backend('kubernetes');
  t.teardown(() => server.stop());
  const admin = new KubeConfig();
  admin.loadFromFile(server.url);
  const objects = KubernetesObjectApi.makeApiClient(admin);
  const core = admin.makeApiClient(CoreV1Api);

  const crd = loadYaml<V1CustomResourceDefinition>(readFileSync(CRD, 'utf8'));
  await objects.patch(crd, undefined, undefined, 'tessera-tests', true, PatchStrategy.ServerSideApply);
  const extensions = admin.makeApiClient(ApiextensionsV1Api);
  await until('the CRD to be established', async () => {
    const read = await extensions.readCustomResourceDefinition({ name: 'leaderboards.tessera.dev' });
    return read.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  });

  const suffix = randomBytes(4).toString('hex');
  const namespace = `rbac-${suffix}`;
  const release = `rbac-${suffix}`;
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  t.teardown(() => core.deleteNamespace({ name: namespace }));

  // The chart's RBAC, as helm renders it.
  const { helm, env } = await helmFor(t);
  const { stdout } = await run(
    helm,
    ['template', release, CHART, '--namespace', namespace, '--kube-version', 'v1.34.4'],
    {
      env,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const rbac = (loadAllYaml(stdout) as KubernetesObject[]).filter(
    (o) => o !== null && RBAC_KINDS.has(o.kind ?? ''),
  );
  t.same(
    rbac.map((o) => o.kind).sort(),
    ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ServiceAccount'],
    'the chart renders its RBAC',
  );
  for (const object of rbac) {
    await objects.patch(object, undefined, undefined, 'tessera-tests', true, PatchStrategy.ServerSideApply);
    if (object.kind?.startsWith('Cluster') === true)
      t.teardown(() => objects.delete(object).then(() => undefined));
  }

  // A token of the chart's ServiceAccount, as the pod would have.
  const account = rbac.find((o) => o.kind === 'ServiceAccount')?.metadata?.name ?? '';
  const { status } = await core.createNamespacedServiceAccountToken({
    namespace,
    name: account,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const cluster = admin.getCurrentCluster()!;
  const asOperator = new KubeConfig();
  asOperator.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'operator', token: status?.token }],
    contexts: [{ name: 'operator', cluster: cluster.name, user: 'operator' }],
    currentContext: 'operator',
  });

  await t.rejects(
    asOperator.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace }),
    { code: 403 },
    'no Secrets for the operator',
  );

  const clock = new MovableClock(Date.parse('2026-05-31T23:59:00Z'));
  const operator = await startOperator({
    config: asOperator,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    watchNamespace: namespace,
    leaseNamespace: namespace,
    identity: 'operator-0',
    image: 'tessera:test',
    port: 0,
    host: '127.0.0.1',
    clock,
    resyncMs: 250,
    leaseDurationSeconds: 2,
    renewMs: 400,
    retryMs: 150,
    defaultMetrics: false,
    players: () => Promise.resolve(undefined),
  });
  t.teardown(() => operator.stop());
  await operator.leading;

  const custom = admin.makeApiClient(CustomObjectsApi);
  const target = { ...LEADERBOARDS, namespace };
  await custom.createNamespacedCustomObject({
    ...target,
    body: { apiVersion: 'tessera.dev/v1alpha1', kind: 'Leaderboard', metadata: { name: 'scores' }, spec: {} },
  });
  const board = async () =>
    (await custom.getNamespacedCustomObject({ ...target, name: 'scores' })) as {
      status?: { currentPeriod?: string; lastArchivedPeriod?: string };
    };
  await until(
    'the status (children made, status written)',
    async () => (await board()).status?.currentPeriod === '2026-05',
  );
  const apps = admin.makeApiClient(AppsV1Api);
  t.ok(await apps.readNamespacedDeployment({ namespace, name: 'scores-api' }), 'the Deployment');

  clock.set(Date.parse('2026-06-01T00:01:00Z'));
  const batch = admin.makeApiClient(BatchV1Api);
  const job = 'scores-archive-2026-05';
  await until(`Job ${job}`, async () =>
    batch.readNamespacedJob({ namespace, name: job }).then(
      () => true,
      () => false,
    ),
  );
  const now = new Date();
  await batch.patchNamespacedJobStatus(
    {
      namespace,
      name: job,
      body: {
        status: {
          startTime: now,
          completionTime: now,
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: now },
            { type: 'Complete', status: 'True', lastTransitionTime: now },
          ],
        },
      },
    },
    mergePatch,
  );
  await until('May archived', async () => (await board()).status?.lastArchivedPeriod === '2026-05');
  await until('the Events', async () =>
    (await core.listNamespacedEvent({ namespace })).items.some((e) => e.reason === 'Archived'),
  );
  t.pass('archived, with an Event');

  await custom.deleteNamespacedCustomObject({ ...target, name: 'scores' });
  await until('the board to be gone (the finalizer ran)', async () =>
    custom.getNamespacedCustomObject({ ...target, name: 'scores' }).then(
      () => false,
      (error: unknown) => error instanceof ApiException && error.code === 404,
    ),
  );
  t.same((await batch.listNamespacedJob({ namespace })).items, [], 'its Jobs deleted');
});
