/**
 * `helm install` and `helm uninstall` against a real API server: the release's objects appear, the
 * operator (run here, as the release's would) reconciles the chart's board, and uninstalling —
 * its pre-delete hook included — leaves nothing behind but what is kept on purpose (the signing
 * Secret) and the CRD (Helm never deletes CRDs). No kubelet runs here, so the test does what the
 * hook Job's pod would do (the clean-up) and marks the Job complete, as the Job controller would.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  NetworkingV1Api,
  PatchStrategy,
  RbacAuthorizationV1Api,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { cleanup, createLogger, startOperator } from '@tessera/operator';
import { backend, pollUntil } from '@tessera/testkit';
import t from 'tap';
import { CHART, helmFor } from './helpers/helm.ts';

const exec = promisify(execFile);
t.setTimeout(900_000);

const LEADERBOARDS = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards' };
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const until = (what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> =>
  pollUntil(what, check, { ms, intervalMs: 200 });

t.test('helm install, the operator reconciles, helm uninstall leaves nothing behind', async (t) => {
  const server = await backend('kubernetes');
  t.teardown(() => server.stop());
  const config = new KubeConfig();
  config.loadFromFile(server.url);
  const core = config.makeApiClient(CoreV1Api);
  const apps = config.makeApiClient(AppsV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const custom = config.makeApiClient(CustomObjectsApi);
  const networking = config.makeApiClient(NetworkingV1Api);
  const rbac = config.makeApiClient(RbacAuthorizationV1Api);
  const suffix = randomBytes(4).toString('hex');
  const namespace = `helm-${suffix}`;
  const release = `t${suffix}`;
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  t.teardown(() => core.deleteNamespace({ name: namespace }));
  const { helm, env } = await helmFor(t);
  const helmArgs = ['--namespace', namespace, '--kubeconfig', server.url];

  await exec(helm, ['install', release, CHART, ...helmArgs, '--set', 'networkPolicies.enabled=true'], {
    env,
  });
  const operatorName = `${release}-tessera-operator`;
  t.ok(await apps.readNamespacedDeployment({ namespace, name: operatorName }), 'the operator Deployment');
  t.ok(await rbac.readClusterRole({ name: operatorName }), 'its ClusterRole');
  t.ok(
    await networking.readNamespacedIngress({ namespace, name: `${release}-tessera-leaderboard` }),
    'the Ingress',
  );
  t.ok(
    await custom.getNamespacedCustomObject({ ...LEADERBOARDS, namespace, name: 'leaderboard' }),
    'the Leaderboard',
  );

  // The operator the release would run (its pods cannot start here).
  const operator = await startOperator({
    config,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    watchNamespace: namespace,
    leaseNamespace: namespace,
    identity: 'operator-0',
    image: 'tessera:test',
    port: 0,
    host: '127.0.0.1',
    resyncMs: 250,
    leaseDurationSeconds: 2,
    renewMs: 400,
    retryMs: 150,
    defaultMetrics: false,
    players: () => Promise.resolve(undefined),
  });
  t.teardown(() => operator.stop());
  await until("the chart's board to be reconciled", () =>
    apps.readNamespacedDeployment({ namespace, name: 'leaderboard-api' }).then(
      () => true,
      () => false,
    ),
  );

  // Uninstall; play the hook Job's pod and the Job controller.
  const uninstall = exec(helm, ['uninstall', release, ...helmArgs, '--timeout', '120s'], { env });
  const hook = `${operatorName}-cleanup`;
  await until(`the pre-delete hook Job ${hook}`, () =>
    batch.readNamespacedJob({ namespace, name: hook }).then(
      () => true,
      () => false,
    ),
  );
  const [container] =
    (await batch.readNamespacedJob({ namespace, name: hook })).spec?.template.spec?.containers ?? [];
  const variable = (name: string) => container?.env?.find((e) => e.name === name)?.value ?? '';
  const deleted = await cleanup({
    config,
    namespace: variable('CLEANUP_NAMESPACE'),
    labelSelector: variable('CLEANUP_SELECTOR'),
    timeoutMs: 60_000,
    logger: createLogger('silent'),
  });
  t.equal(deleted, 1, "the hook's clean-up deleted the chart's board (and the operator finalized it)");
  const now = new Date();
  await batch.patchNamespacedJobStatus(
    {
      namespace,
      name: hook,
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
  await uninstall;
  await operator.stop();

  const names = (items: { metadata?: { name?: string } }[]) => items.map((i) => i.metadata?.name ?? '');
  t.same(names((await apps.listNamespacedDeployment({ namespace })).items), [], 'no Deployment');
  t.same(names((await core.listNamespacedService({ namespace })).items), [], 'no Service');
  t.same(
    names((await batch.listNamespacedJob({ namespace })).items),
    [],
    'no Job (the hook deleted once it succeeded)',
  );
  t.same(names((await core.listNamespacedServiceAccount({ namespace })).items), [], 'no ServiceAccount');
  t.same(names((await networking.listNamespacedIngress({ namespace })).items), [], 'no Ingress');
  t.same(names((await networking.listNamespacedNetworkPolicy({ namespace })).items), [], 'no NetworkPolicy');
  t.same(names((await rbac.listNamespacedRole({ namespace })).items), [], 'no Role');
  t.same(
    names((await rbac.listClusterRole()).items).filter((n) => n.startsWith(release)),
    [],
    'no ClusterRole of the release',
  );
  const left = (await custom.listNamespacedCustomObject({ ...LEADERBOARDS, namespace })) as {
    items: unknown[];
  };
  t.same(left.items, [], 'no Leaderboard');
  t.same(
    names((await core.listNamespacedSecret({ namespace })).items),
    [`${release}-tessera-auth`],
    'only the signing Secret, kept on purpose (helm.sh/resource-policy: keep)',
  );
});
