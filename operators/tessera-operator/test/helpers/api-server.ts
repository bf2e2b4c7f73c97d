/**
 * A real kube-apiserver + etcd for a test (testkit's backend('kubernetes')), the CRDs applied from
 * the committed files (what users apply), and a namespace of the test's own, deleted afterwards.
 * The API server runs no controllers: no garbage collector, no Job controller, no kubelet; a test
 * plays those parts itself where it needs them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  loadYaml,
  PatchStrategy,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { backend, pollUntil } from '@tessera/testkit';
import type { Test } from 'tap';

const CRDS = ['leaderboards.tessera.dev.yaml'].map(
  (file) => new URL(`../../../../crds/${file}`, import.meta.url),
);

export interface ApiServer {
  readonly config: KubeConfig;
  /** The kubeconfig file (for a process of its own). */
  readonly kubeconfig: string;
  readonly namespace: string;
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
}

/**
 * pollUntil every 100 ms; `what` is read again at the timeout, so that it names what was last
 * seen. A check that throws is retried; its last error is in the timeout's message.
 */
export function until(
  what: () => string,
  check: () => Promise<boolean> | boolean,
  ms = 30_000,
): Promise<void> {
  return pollUntil(what(), async () => check(), {
    ms,
    intervalMs: 100,
    describe: () => Promise.resolve(`last seen: ${what()}`),
  });
}

export async function apiServer(t: Test, label: string): Promise<ApiServer> {
  const server = await backend('kubernetes');
  t.teardown(() => server.stop());
  const config = new KubeConfig();
  config.loadFromFile(server.url);
  const core = config.makeApiClient(CoreV1Api);
  const objects = KubernetesObjectApi.makeApiClient(config);
  const extensions = config.makeApiClient(ApiextensionsV1Api);
  for (const file of CRDS) {
    // loadYaml, not a plain YAML parser: the client serializes through its models, which know a
    // schema's `default`, `enum` and `x-kubernetes-validations` only under their model names.
    const crd = loadYaml<V1CustomResourceDefinition>(readFileSync(file, 'utf8'));
    await objects.patch(crd, undefined, undefined, 'tessera-tests', true, PatchStrategy.ServerSideApply);
    await until(
      () => `CRD ${crd.metadata?.name} to be established`,
      async () => {
        const read = await extensions.readCustomResourceDefinition({ name: crd.metadata?.name ?? '' });
        return read.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
      },
    );
  }
  const namespace = `${label}-${randomBytes(4).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  // Without a namespace controller the namespace stays Terminating with what it holds; on the
  // throwaway API server that is harmless, and on a shared one (TEST_KUBECONFIG) its controller
  // finishes the job.
  t.teardown(() => core.deleteNamespace({ name: namespace }));
  return { config, kubeconfig: server.url, namespace, core, custom: config.makeApiClient(CustomObjectsApi) };
}
