/**
 * The single-node cluster of tools/cluster.sh behaves as a Kubernetes cluster does: pods of a
 * locally built image run, Services resolve through the cluster DNS, an Ingress routes from
 * 127.0.0.1, kubectl scale/logs/exec work, memory limits are enforced, Leases, a scalable custom
 * resource, and a StatefulSet pinned to a tainted node. The cluster starts once for all of them
 * (or is TEST_CLUSTER_KUBECONFIG's); the test talks to it only through 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { cluster, kubectl, type Cluster } from '../src/cluster.ts';
import { get } from './helpers/host-get.ts';
import { importSmokeImage, MARKER } from './helpers/smoke-image.ts';
import {
  clientPod,
  engineManifests,
  hogPod,
  lease,
  shardCrd,
  webIngress,
  webManifests,
} from './helpers/smoke-manifests.ts';
import { smokeNamespace } from './helpers/smoke-namespace.ts';

t.setTimeout(3_600_000); // a cold machine first builds kubelet and the rest

const target: Cluster = await cluster();
t.teardown(() => target.stop());

const id = randomBytes(4).toString('hex');
const namespace = `cluster-smoke-${id}`;
const GROUP = 'cluster-smoke.tessera.dev';
const { k, apply, until, diagnosed, pods } = smokeNamespace(target, namespace);

await importSmokeImage(t, target);

await kubectl(target, ['create', 'namespace', namespace]);
t.teardown(() => kubectl(target, ['delete', 'namespace', namespace, '--wait=false']));
// Pods are refused until the namespace's default ServiceAccount exists (the controller manager's).
await until('the default ServiceAccount', async () => (await k('get', 'serviceaccount', 'default')) !== '');

t.test('the node is Ready', async (t) => {
  const node = JSON.parse(await kubectl(target, ['get', 'nodes', '--output', 'json'])) as {
    items: { status: { conditions: { type: string; status: string }[] } }[];
  };
  t.ok(node.items.length >= 1, 'a node is registered');
  t.ok(
    node.items.some((n) => n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True')),
    'it is Ready',
  );
});

t.test('a Deployment of a locally built image rolls out behind a Service', async (t) => {
  await apply(...webManifests());
  await diagnosed(() => k('rollout', 'status', 'deployment/web', '--timeout=180s'));
  t.equal((await pods('app=web')).length, 2, 'two pods run');
});

t.test('a Service resolves by name from another pod through the cluster DNS, and answers', async (t) => {
  await apply(clientPod(namespace));
  await diagnosed(() => k('wait', '--for=condition=Ready', 'pod/client', '--timeout=120s'));
  const name = `web.${namespace}.svc.cluster.local`;
  const clusterIp = (await k('get', 'service', 'web', '--output', 'jsonpath={.spec.clusterIP}')).trim();
  const lookup = await k('exec', 'client', '--', 'nslookup', name);
  const resolved = /Name:\s+\S+\s+Address:\s*([\d.]+)/.exec(lookup)?.[1];
  t.equal(resolved, clusterIp, `${name} is the Service's address (nslookup said:\n${lookup})`);
  // (Debian's static busybox cannot use the C library's resolver, and its wget crashes here:
  // the request goes out through nc, to the address the cluster DNS gave.)
  const page = await diagnosed(() =>
    k('exec', 'client', '--', 'sh', '-c', `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 5 ${clusterIp} 80`),
  );
  t.match(page, /^HTTP\/1\.[01] 200/, 'the Service answers 200');
  t.match(page, MARKER, 'with the page');
});

t.test('kubectl logs and kubectl exec work', async (t) => {
  t.match(await k('logs', 'client'), `client of ${namespace} up`, "kubectl logs shows the pod's output");
  t.equal(
    (await k('exec', 'client', '--', 'sh', '-c', 'echo $((6 * 7))')).trim(),
    '42',
    'kubectl exec runs in it',
  );
});

t.test('an Ingress routes a host from 127.0.0.1 to the Service', async (t) => {
  const host = `${namespace}.smoke.tessera.test`;
  await apply(webIngress(host));
  t.match(target.ingressUrl, /^http:\/\/127\.0\.0\.1:\d+$/, 'the ingress is on 127.0.0.1');
  let answer = { status: 0, body: '' };
  await until(
    `${target.ingressUrl} with Host ${host} to answer 200`,
    async () => {
      answer = await get(`${target.ingressUrl}/`, host);
      return answer.status === 200;
    },
    60_000,
  );
  t.equal(answer.body.trim(), MARKER, 'the page comes through the ingress');
  t.equal((await get(`${target.ingressUrl}/`, `other-${host}`)).status, 404, 'another host is not routed');
});

t.test('kubectl scale changes the pod count', async (t) => {
  const count = (n: number) => async () => (await pods('app=web')).length === n;
  await k('scale', 'deployment/web', '--replicas=3');
  await diagnosed(() => k('rollout', 'status', 'deployment/web', '--timeout=120s'));
  await until('three web pods', count(3));
  t.pass('scaled up to 3');
  await k('scale', 'deployment/web', '--replicas=1');
  await until('one web pod (the others gone)', count(1));
  t.pass('scaled down to 1');
});

t.test('a pod over its memory limit is OOMKilled and restarted', async (t) => {
  await apply(hogPod());
  let reason: string | undefined;
  let restarts = 0;
  await until('the hog to be OOMKilled and restarted', async () => {
    const [hog] = await pods('app=hog');
    const status = hog?.status.containerStatuses?.[0];
    reason = status?.lastState.terminated?.reason;
    restarts = status?.restartCount ?? 0;
    return reason !== undefined && restarts >= 1;
  });
  t.equal(reason, 'OOMKilled', 'the last termination was the OOM killer');
  t.ok(restarts >= 1, `restarted (${restarts})`);
  await k('delete', 'pod', 'hog', '--wait=false');
});

t.test("Leases: the node's heartbeat is renewed, and one of our own is taken and renewed", async (t) => {
  const nodes = (await kubectl(target, ['get', 'nodes', '--output', 'jsonpath={.items[*].metadata.name}']))
    .trim()
    .split(' ');
  const renewTime = async () =>
    (
      await kubectl(target, [
        'get',
        'lease',
        '--namespace',
        'kube-node-lease',
        nodes[0]!,
        '--output',
        'jsonpath={.spec.renewTime}',
      ])
    ).trim();
  const first = await renewTime();
  await until('the node lease to be renewed', async () => (await renewTime()) !== first, 60_000);
  t.pass('kubelet renews its node lease');

  await apply(lease('pod-a'));
  const version = (
    await k('get', 'lease', 'engine-leader', '--output', 'jsonpath={.metadata.resourceVersion}')
  ).trim();
  await kubectl(target, ['--namespace', namespace, 'replace', '-f', '-'], {
    input: JSON.stringify(lease('pod-b', version)),
  });
  t.equal(
    (await k('get', 'lease', 'engine-leader', '--output', 'jsonpath={.spec.holderIdentity}')).trim(),
    'pod-b',
    'pod-b took the lease over',
  );
  await t.rejects(
    kubectl(target, ['--namespace', namespace, 'replace', '-f', '-'], {
      input: JSON.stringify(lease('pod-c', version)),
    }),
    /Conflict|the object has been modified/,
    'a takeover from a stale resourceVersion is refused',
  );
});

t.test('kubectl scale on a custom resource with a scale subresource', async (t) => {
  const crd = `shards.${GROUP}`;
  await kubectl(target, ['apply', '-f', '-'], { input: JSON.stringify(shardCrd(GROUP)) });
  t.teardown(() => kubectl(target, ['delete', 'crd', crd, '--wait=false']));
  await kubectl(target, ['wait', '--for=condition=Established', `crd/${crd}`, '--timeout=60s']);
  await until('the Shard kind to be served', async () => {
    await apply({
      apiVersion: `${GROUP}/v1`,
      kind: 'Shard',
      metadata: { name: 'aapl' },
      spec: { replicas: 1 },
    });
    return true;
  });
  await k('scale', `shards.${GROUP}/aapl`, '--replicas=4');
  t.equal(
    (await k('get', `shards.${GROUP}`, 'aapl', '--output', 'jsonpath={.spec.replicas}')).trim(),
    '4',
    'the scale subresource wrote spec.replicas',
  );
});

t.test('a StatefulSet with a nodeSelector and a toleration runs on a tainted node', async (t) => {
  const nodes = (await kubectl(target, ['get', 'nodes', '--output', 'jsonpath={.items[*].metadata.name}']))
    .trim()
    .split(' ');
  const node = nodes[0]!;
  const key = `${GROUP}/engine`;
  // The node is labelled and tainted for this test only (the key carries the namespace's id).
  await kubectl(target, ['label', 'node', node, `${key}=${id}`, '--overwrite']);
  t.teardown(() => kubectl(target, ['label', 'node', node, `${key}-`]));
  await kubectl(target, ['taint', 'node', node, `${key}=${id}:NoSchedule`, '--overwrite']);
  t.teardown(() => kubectl(target, ['taint', 'node', node, `${key}-`]));
  await apply(...engineManifests(key, id));
  await diagnosed(() => k('rollout', 'status', 'statefulset/engine', '--timeout=120s'));
  t.equal(
    (await k('get', 'pod', 'engine-0', '--output', 'jsonpath={.spec.nodeName}')).trim(),
    node,
    'engine-0 runs on the tainted node',
  );
  await until('the pod without the toleration to be unschedulable', async () => {
    const [stray] = await pods('app=stray');
    return (
      stray?.status.conditions?.some(
        (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
      ) ?? false
    );
  });
  t.pass('a pod without the toleration is not scheduled there');
});
