import { randomBytes } from 'node:crypto';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CoordinationV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  V1MicroTime,
  Watch,
  type V1CustomResourceDefinition,
  type V1Lease,
} from '@kubernetes/client-node';
import t from 'tap';
import { backend } from '../src/backends.ts';
import { pollUntil } from '../src/poll.ts';

t.setTimeout(1_200_000); // a cold machine builds etcd and kube-apiserver first (a few minutes)

const GROUP = 'smoke.tessera.dev';
const CRD: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `symbols.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'symbols', singular: 'symbol', kind: 'Symbol' },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['ticker'],
                properties: { ticker: { type: 'string' }, replicas: { type: 'integer', minimum: 1 } },
              },
            },
          },
        },
      },
    ],
  },
};

interface SymbolResource {
  apiVersion: string;
  kind: string;
  metadata: { name: string; resourceVersion?: string };
  spec: { ticker: string; replicas: number };
}

/** Polls until `check` holds (the API server establishes a CRD asynchronously). */
const until = (what: () => string, check: () => Promise<boolean>, ms = 30_000): Promise<void> =>
  pollUntil(what(), check, { ms, intervalMs: 200, describe: () => Promise.resolve(`last seen: ${what()}`) });

t.test('kube-apiserver: apply a CRD, create and watch a custom resource, hold a Lease', async (t) => {
  const server = await backend('kubernetes');
  t.teardown(() => server.stop());
  const config = new KubeConfig();
  config.loadFromFile(server.url);
  const objects = KubernetesObjectApi.makeApiClient(config);
  const extensions = config.makeApiClient(ApiextensionsV1Api);
  const custom = config.makeApiClient(CustomObjectsApi);
  const coordination = config.makeApiClient(CoordinationV1Api);
  const core = config.makeApiClient(CoreV1Api);
  // A namespace of its own, deleted afterwards (with what it holds, where a controller manager
  // runs): the API server may be a shared one (TEST_KUBECONFIG).
  const namespace = `smoke-${randomBytes(4).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  t.teardown(() => core.deleteNamespace({ name: namespace }));

  // Server-side apply, as `kubectl apply --server-side` does; applying again changes nothing.
  const apply = () =>
    objects.patch(CRD, undefined, undefined, 'tessera-smoke', true, PatchStrategy.ServerSideApply);
  const applied = await apply();
  const reapplied = await apply();
  // (The generation counts changes of the spec. The resourceVersion may move meanwhile: the API
  // server fills in the status while it establishes the CRD.)
  t.equal(reapplied.metadata?.generation, applied.metadata?.generation, 'applying again changes nothing');
  await until(
    () => 'the CRD to be established',
    async () => {
      const crd = await extensions.readCustomResourceDefinition({ name: `symbols.${GROUP}` });
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    },
  );

  // As an informer does: list (once the new resource is served: until then the API server
  // answers 404 or 429), then watch from the list's resourceVersion.
  const target = { group: GROUP, version: 'v1alpha1', namespace, plural: 'symbols' };
  let listed = '';
  await until(
    () => 'the custom resource to be served',
    async () => {
      try {
        const list = (await custom.listNamespacedCustomObject(target)) as {
          metadata: { resourceVersion: string };
        };
        listed = list.metadata.resourceVersion;
        return true;
      } catch {
        return false;
      }
    },
  );
  const seen: string[] = [];
  const watchErrors: unknown[] = [];
  const watching = await new Watch(config).watch(
    `/apis/${GROUP}/v1alpha1/namespaces/${namespace}/symbols`,
    { resourceVersion: listed },
    (phase, object: SymbolResource) => seen.push(`${phase} ${object.metadata.name} ${object.spec.replicas}`),
    (error: unknown) => {
      if (!(error instanceof Error && error.name === 'AbortError')) watchErrors.push(error);
    },
  );
  t.teardown(() => watching.abort());

  const symbol: SymbolResource = {
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'Symbol',
    metadata: { name: 'aapl' },
    spec: { ticker: 'AAPL', replicas: 1 },
  };
  await custom.createNamespacedCustomObject({ ...target, body: symbol });
  const stored = (await custom.getNamespacedCustomObject({ ...target, name: 'aapl' })) as SymbolResource;
  await custom.replaceNamespacedCustomObject({
    ...target,
    name: 'aapl',
    body: { ...stored, spec: { ...stored.spec, replicas: 3 } },
  });
  await t.rejects(
    custom.createNamespacedCustomObject({
      ...target,
      body: { ...symbol, metadata: { name: 'bad' }, spec: { ticker: 'X', replicas: 0 } },
    }),
    { code: 422 },
    'the CRD schema is enforced (replicas >= 1)',
  );
  await until(
    () => `the watch to see both changes (seen: ${seen.join(', ') || 'nothing'})`,
    () => Promise.resolve(seen.length >= 2 || watchErrors.length > 0),
  );
  t.same(watchErrors, [], 'the watch ran without errors');
  t.same(seen, ['ADDED aapl 1', 'MODIFIED aapl 3']);

  // A Lease, as leader election uses: take it, then renew it with the resourceVersion read.
  // Its times are MicroTime (six fraction digits): the client reads them back as plain Dates and
  // would write those with milliseconds, which the API server refuses; V1MicroTime writes six.
  const renewal = (lease: V1Lease): V1Lease => ({
    ...lease,
    spec: {
      ...lease.spec,
      acquireTime: new V1MicroTime(lease.spec!.acquireTime!),
      renewTime: new V1MicroTime(),
    },
  });
  const name = 'tessera-operator';
  await coordination.createNamespacedLease({
    namespace,
    body: {
      metadata: { name, namespace },
      spec: {
        holderIdentity: 'pod-a',
        leaseDurationSeconds: 15,
        acquireTime: new V1MicroTime(),
        renewTime: new V1MicroTime(),
      },
    },
  });
  const held = await coordination.readNamespacedLease({ name, namespace });
  t.equal(held.spec?.holderIdentity, 'pod-a');
  const renewed = await coordination.replaceNamespacedLease({
    name,
    namespace,
    body: renewal(held),
  });
  t.not(renewed.metadata?.resourceVersion, held.metadata?.resourceVersion, 'the renewal is a new version');
  await t.rejects(
    coordination.replaceNamespacedLease({ name, namespace, body: renewal(held) }),
    { code: 409 },
    'a renewal from a stale resourceVersion is a conflict (what leader election relies on)',
  );
});
