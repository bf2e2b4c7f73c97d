/**
 * The Leaderboard controller against a real API server: children with owner references, the
 * status, a month's end on a moved clock (the archive Job, its completion, the Events),
 * retention, and deletion through the finalizer. The API server runs no controllers, so the test
 * writes the Deployment's and the Jobs' status itself, as the kubelet and the Job controller would.
 */
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  PolicyV1Api,
  type V1OwnerReference,
} from '@kubernetes/client-node';
import t from 'tap';
import { MovableClock } from '../../src/runtime/clock.ts';
import { apiServer, until } from '../helpers/api-server.ts';
import { testOperator } from '../helpers/operator.ts';
import { complete, LEADERBOARDS, mergePatch, type Board } from './board-fixtures.ts';

t.setTimeout(600_000);

t.test('a Leaderboard: children, status, a month ends, retention, deletion', async (t) => {
  const { config, namespace, custom } = await apiServer(t, 'lb');
  const apps = config.makeApiClient(AppsV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const core = config.makeApiClient(CoreV1Api);
  const policy = config.makeApiClient(PolicyV1Api);
  const clock = new MovableClock(Date.parse('2026-01-31T23:58:00Z'));
  const operator = await testOperator(t, config, namespace, { clock, players: () => Promise.resolve(42) });
  await operator.leading;

  const target = { ...LEADERBOARDS, namespace };
  await custom.createNamespacedCustomObject({
    ...target,
    body: {
      apiVersion: 'tessera.dev/v1alpha1',
      kind: 'Leaderboard',
      metadata: { name: 'scores' },
      spec: { retention: 2, auth: { jwtSecret: { secretKeyRef: { name: 'tessera-auth', key: 'secret' } } } },
    },
  });
  const board = async () => (await custom.getNamespacedCustomObject({ ...target, name: 'scores' })) as Board;
  const { uid } = (await board()).metadata;
  let last: Board | undefined;
  const status = (what: string, check: (b: Board) => boolean) =>
    until(
      () => `${what} (status: ${JSON.stringify(last?.status)})`,
      async () => check((last = await board())),
    );

  // Children, each owned by the board (the garbage collector's link).
  await status('the current period', (b) => b.status?.currentPeriod === '2026-01');
  const owned = (refs: V1OwnerReference[] | undefined) =>
    refs?.length === 1 &&
    refs[0]?.uid === uid &&
    refs[0].controller === true &&
    refs[0].kind === 'Leaderboard';
  const deployment = await apps.readNamespacedDeployment({ namespace, name: 'scores-api' });
  t.ok(owned(deployment.metadata?.ownerReferences), 'the Deployment is owned by the board');
  t.ok(
    owned((await core.readNamespacedService({ namespace, name: 'scores' })).metadata?.ownerReferences),
    'the Service too',
  );
  t.ok(
    owned(
      (await policy.readNamespacedPodDisruptionBudget({ namespace, name: 'scores-api' })).metadata
        ?.ownerReferences,
    ),
    'the PodDisruptionBudget too',
  );
  t.ok(
    (await board()).metadata.finalizers?.includes('tessera.dev/leaderboard-cleanup'),
    'the finalizer is set',
  );
  const pod = deployment.spec?.template.spec;
  const container = pod?.containers[0];
  t.same(container?.args, ['run', 'leaderboard', 'api']);
  t.equal(container?.image, 'tessera:test');
  t.match(container?.readinessProbe?.httpGet, { path: '/readyz', port: 'http' });
  t.match(container?.livenessProbe?.httpGet, { path: '/healthz' });
  t.match(container?.securityContext, {
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
  });
  t.equal(pod?.securityContext?.runAsNonRoot, true);
  t.match(
    container?.env?.find((e) => e.name === 'AUTH_JWT_SECRET')?.valueFrom?.secretKeyRef,
    { name: 'tessera-auth', key: 'secret' },
    'the signing secret comes from the Secret the spec names',
  );
  t.equal(container?.env?.find((e) => e.name === 'LEADERBOARD_TIMEZONE')?.value, 'UTC');
  t.notOk(
    container?.env?.some((e) => e.name === 'REDIS_URL'),
    'no Redis without its Secret',
  );

  // The status follows the api: ready replicas (the kubelet's part, played here) and players.
  await apps.patchNamespacedDeploymentStatus(
    {
      namespace,
      name: 'scores-api',
      body: { status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 } },
    },
    mergePatch,
  );
  await status(
    'one ready replica, 42 players',
    (b) => b.status?.readyReplicas === 1 && b.status.players === 42,
  );
  t.match(
    last?.status?.conditions?.find((c) => c.type === 'Ready'),
    { status: 'True', reason: 'ReplicasReady' },
  );
  t.equal(last?.status?.observedGeneration, 1);

  // The month ends (the clock moves three minutes): the archive Job for January.
  clock.set(Date.parse('2026-02-01T00:01:00Z'));
  await status('February', (b) => b.status?.currentPeriod === '2026-02');
  const job = await batch.readNamespacedJob({ namespace, name: 'scores-archive-2026-01' });
  t.ok(owned(job.metadata?.ownerReferences), 'the archive Job is owned by the board');
  t.same(job.spec?.template.spec?.containers[0]?.args, [
    'archive',
    'leaderboard',
    '--period',
    '2026-01',
    '--keep',
    '2',
  ]);
  t.match(
    last?.status?.conditions?.find((c) => c.type === 'Archived'),
    { status: 'False', reason: 'Archiving' },
  );
  t.equal(last?.status?.lastArchivedPeriod, undefined, 'not archived before the Job completes');

  // The Job controller's part: the Job completes → the status and an Event say so.
  await complete(batch, namespace, 'scores-archive-2026-01');
  await status('January archived', (b) => b.status?.lastArchivedPeriod === '2026-01');
  t.match(
    last?.status?.conditions?.find((c) => c.type === 'Archived'),
    { status: 'True', reason: 'Archived' },
  );
  const reasons = async () =>
    (await core.listNamespacedEvent({ namespace })).items
      .filter((e) => e.involvedObject.name === 'scores')
      .map((e) => `${e.reason}: ${e.message}`);
  await until(
    () => 'the Events',
    async () => (await reasons()).some((r) => r.startsWith('Archived: 2026-01')),
  );
  const seen = await reasons();
  for (const expected of [/^ArchiveStarted: 2026-01 ended/, /^Archived: 2026-01 is archived$/]) {
    t.ok(
      seen.some((r) => expected.test(r)),
      `an Event ${expected} (seen: ${seen.join(' | ')})`,
    );
  }

  // Two more months: with a retention of 2, January's archive is forgotten.
  for (const [instant, period] of [
    ['2026-03-01T00:00:10Z', '2026-02'],
    ['2026-04-01T00:00:10Z', '2026-03'],
  ] as const) {
    clock.set(Date.parse(instant));
    const name = `scores-archive-${period}`;
    await until(
      () => `Job ${name}`,
      async () => (await batch.listNamespacedJob({ namespace })).items.some((j) => j.metadata?.name === name),
    );
    await complete(batch, namespace, name);
    await status(`${period} archived`, (b) => b.status?.lastArchivedPeriod === period);
  }
  await status(
    'two archives kept',
    (b) => JSON.stringify(b.status?.archivedPeriods) === '["2026-02","2026-03"]',
  );
  const jobs = (await batch.listNamespacedJob({ namespace })).items.map((j) => j.metadata?.name).sort();
  t.same(jobs, ['scores-archive-2026-02', 'scores-archive-2026-03'], "January's Job is gone");
  const expired = (await reasons()).filter((r) => r.startsWith('ArchiveExpired'));
  t.same(
    expired,
    ['ArchiveExpired: 2026-01 is past the retention of 2 periods'],
    'one Event for the expired archive',
  );

  // Deletion: the finalizer removes the children (no garbage collector runs here), then the board goes.
  await custom.deleteNamespacedCustomObject({ ...target, name: 'scores' });
  await until(
    () => 'the board to be gone',
    async () =>
      ((await custom.listNamespacedCustomObject(target)) as { items: unknown[] }).items.length === 0,
  );
  t.same((await batch.listNamespacedJob({ namespace })).items, [], 'no archive Job left');
  t.same((await apps.listNamespacedDeployment({ namespace })).items, [], 'no Deployment left');
  t.same((await core.listNamespacedService({ namespace })).items, [], 'no Service left');
  t.same(
    (await policy.listNamespacedPodDisruptionBudget({ namespace })).items,
    [],
    'no PodDisruptionBudget left',
  );

  const metrics = await (await fetch(`${operator.health.url}/metrics`)).text();
  t.match(metrics, /tessera_operator_reconciles_total\{kind="Leaderboard",result="(success|requeue)"\} \d+/);
  t.match(metrics, /tessera_operator_leader 1/);
});

t.test('a spec edit reaches the Deployment; a zone the runtime does not know makes nothing', async (t) => {
  const { config, namespace, custom } = await apiServer(t, 'lb-spec');
  const apps = config.makeApiClient(AppsV1Api);
  const core = config.makeApiClient(CoreV1Api);
  const operator = await testOperator(t, config, namespace);
  await operator.leading;
  const target = { ...LEADERBOARDS, namespace };
  const create = (name: string, spec: Record<string, unknown>) =>
    custom.createNamespacedCustomObject({
      ...target,
      body: { apiVersion: 'tessera.dev/v1alpha1', kind: 'Leaderboard', metadata: { name }, spec },
    });
  const get = async (name: string) => (await custom.getNamespacedCustomObject({ ...target, name })) as Board;
  const tieBreak = async () =>
    (
      await apps.readNamespacedDeployment({ namespace, name: 'edited-api' })
    ).spec?.template.spec?.containers[0]?.env?.find((e) => e.name === 'LEADERBOARD_TIE_BREAK')?.value;

  await create('edited', {});
  await until(
    () => 'the first Deployment',
    async () => (await tieBreak().catch(() => undefined)) === 'shared',
  );
  await custom.patchNamespacedCustomObject(
    { ...target, name: 'edited', body: { spec: { tieBreak: 'earliest' } } },
    mergePatch,
  );
  await until(
    () => 'the edit to reach the Deployment',
    async () => (await tieBreak()) === 'earliest',
  );
  await until(
    () => 'observedGeneration 2',
    async () => (await get('edited')).status?.observedGeneration === 2,
  );

  // Settled: passes keep running (a resync every 250 ms) but write nothing.
  const settled = (await custom.getNamespacedCustomObject({ ...target, name: 'edited' })) as {
    metadata: { resourceVersion: string };
  };
  // Before a check that nothing happened: under load it can let a failure pass, never fail.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const later = (await custom.getNamespacedCustomObject({ ...target, name: 'edited' })) as {
    metadata: { resourceVersion: string };
  };
  t.equal(later.metadata.resourceVersion, settled.metadata.resourceVersion, 'no write when nothing changed');

  // The schema's pattern lets this through; the runtime's time zone database does not know it.
  await create('nowhere', { timezone: 'Mars/Olympus_Mons' });
  let last: Board | undefined;
  await until(
    () => `SpecValid=False (status: ${JSON.stringify(last?.status)})`,
    async () =>
      (last = await get('nowhere')).status?.conditions?.some(
        (c) => c.type === 'SpecValid' && c.status === 'False' && c.reason === 'UnknownTimeZone',
      ) ?? false,
  );
  await t.rejects(
    apps.readNamespacedDeployment({ namespace, name: 'nowhere-api' }),
    { code: 404 },
    'nothing is made from a spec that is wrong',
  );
  const warnings = (await core.listNamespacedEvent({ namespace })).items.filter(
    (e) => e.involvedObject.name === 'nowhere' && e.type === 'Warning',
  );
  t.match(warnings[0]?.message, /spec\.timezone "Mars\/Olympus_Mons" is not a time zone/);
});
