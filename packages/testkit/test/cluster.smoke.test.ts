/**
 * The single-node cluster of tools/cluster.sh behaves as a Kubernetes cluster does: pods of a
 * locally built image run, Services resolve through the cluster DNS, an Ingress routes from
 * 127.0.0.1, kubectl scale/logs/exec work, memory limits are enforced, Leases, a scalable custom
 * resource, and a StatefulSet pinned to a tainted node. The cluster starts once for all of them
 * (or is TEST_CLUSTER_KUBECONFIG's); the test talks to it only through 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { cluster, importImage, kubectl, type Cluster } from '../src/cluster.ts';

const run = promisify(execFile);
t.setTimeout(3_600_000); // a cold machine first builds kubelet and the rest

const target: Cluster = await cluster();
t.teardown(() => target.stop());

const id = randomBytes(4).toString('hex');
const namespace = `cluster-smoke-${id}`;
const IMAGE = 'tessera.local/cluster-smoke:1';
const MARKER = 'served by the tessera cluster smoke test';
const GROUP = 'cluster-smoke.tessera.dev';
const k = (...args: string[]) => kubectl(target, ['--namespace', namespace, ...args]);
const apply = (...objects: object[]) =>
  kubectl(target, ['--namespace', namespace, 'apply', '-f', '-'], {
    input: objects.map((o) => JSON.stringify(o)).join('\n'),
  });

/** What to look at when something does not come up: the pods, the events, the daemons' logs. */
async function diagnostics(): Promise<string> {
  const parts: string[] = [];
  const section = async (title: string, what: () => Promise<string>) => {
    try {
      parts.push(`--- ${title} ---\n${(await what()).trim()}`);
    } catch (error) {
      parts.push(`--- ${title}: ${(error as Error).message}`);
    }
  };
  await section('pods', () => k('get', 'pods', '--output', 'wide'));
  await section('events', async () =>
    (await k('get', 'events', '--sort-by=.lastTimestamp')).split('\n').slice(-30).join('\n'),
  );
  for (const daemon of ['kubelet', 'containerd', 'traefik', 'coredns']) {
    if (target.logs === undefined) break;
    await section(
      `${daemon} log`,
      async () => (await run('tail', ['-n', '20', join(target.logs!, `${daemon}.log`)])).stdout,
    );
  }
  return parts.join('\n');
}

/** Polls `check` until it is true; on timeout fails with what it waited for and the diagnostics. */
async function until(what: string, check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `\nlast error: ${last.message}` : '';
      throw new Error(`timed out after ${ms / 1000} s waiting for ${what}${why}\n${await diagnostics()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Runs `step`; a failure carries the diagnostics. */
async function diagnosed<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await diagnostics()}`, { cause: error });
  }
}

/** GET through the ingress on 127.0.0.1 with a Host header. */
function get(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host }, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

interface PodList {
  items: {
    metadata: { name: string; deletionTimestamp?: string };
    status: {
      phase?: string;
      conditions?: { type: string; status: string; reason?: string }[];
      containerStatuses?: { restartCount: number; lastState: { terminated?: { reason?: string } } }[];
    };
  }[];
}
const pods = async (selector: string): Promise<PodList['items']> =>
  (JSON.parse(await k('get', 'pods', '--selector', selector, '--output', 'json')) as PodList).items;

// A busybox image: httpd serving a page, and the shell, nslookup and nc for the client pod.
const rootfs = mkdtempSync(join(tmpdir(), 'tessera-cluster-smoke-'));
t.teardown(() => rmSync(rootfs, { recursive: true, force: true }));
mkdirSync(join(rootfs, 'bin'));
mkdirSync(join(rootfs, 'www'));
copyFileSync('/bin/busybox', join(rootfs, 'bin', 'busybox'));
for (const applet of ['sh', 'httpd', 'nslookup', 'nc', 'sleep', 'cat', 'echo', 'printf']) {
  symlinkSync('busybox', join(rootfs, 'bin', applet));
}
writeFileSync(join(rootfs, 'www', 'index.html'), `${MARKER}\n`);
if (target.containerd !== undefined) {
  await importImage(target, { rootfs, name: IMAGE, entrypoint: ['/bin/sh'], env: { PATH: '/bin' } });
}

await kubectl(target, ['create', 'namespace', namespace]);
t.teardown(() => kubectl(target, ['delete', 'namespace', namespace, '--wait=false']));
// Pods are refused until the namespace's default ServiceAccount exists (the controller manager's).
await until('the default ServiceAccount', async () => (await k('get', 'serviceaccount', 'default')) !== '');

const container = (name: string, command: string[], extra: object = {}) => ({
  name,
  image: IMAGE,
  imagePullPolicy: 'Never',
  command,
  ...extra,
});
const podSpec = (containers: object[], extra: object = {}) => ({
  terminationGracePeriodSeconds: 1, // busybox as PID 1 ignores SIGTERM
  automountServiceAccountToken: false,
  enableServiceLinks: false,
  containers,
  ...extra,
});

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
  await apply(
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: podSpec([
            container('httpd', ['/bin/httpd', '-f', '-v', '-p', '8080', '-h', '/www'], {
              ports: [{ containerPort: 8080 }],
              readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 },
            }),
          ]),
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
    },
  );
  await diagnosed(() => k('rollout', 'status', 'deployment/web', '--timeout=180s'));
  t.equal((await pods('app=web')).length, 2, 'two pods run');
});

t.test('a Service resolves by name from another pod through the cluster DNS, and answers', async (t) => {
  await apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'client', labels: { app: 'client' } },
    spec: podSpec([
      container('client', ['/bin/sh', '-c', `echo client of ${namespace} up; exec sleep 3600`]),
    ]),
  });
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
  await apply({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web' },
    spec: {
      rules: [
        {
          host,
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } },
            ],
          },
        },
      ],
    },
  });
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
  await apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'hog', labels: { app: 'hog' } },
    spec: podSpec([
      // The shell doubles a string until the limit stops it.
      container('hog', ['/bin/sh', '-c', 'x=0123456789abcdef; while true; do x=$x$x; done'], {
        resources: { limits: { memory: '24Mi' }, requests: { memory: '24Mi' } },
      }),
    ]),
  });
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

  const lease = (holder: string, resourceVersion?: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'engine-leader', ...(resourceVersion ? { resourceVersion } : {}) },
    spec: { holderIdentity: holder, leaseDurationSeconds: 15 },
  });
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
  await kubectl(target, ['apply', '-f', '-'], {
    input: JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: crd },
      spec: {
        group: GROUP,
        scope: 'Namespaced',
        names: { plural: 'shards', singular: 'shard', kind: 'Shard' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: {
              status: {},
              scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
            },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 } } },
                  status: { type: 'object', properties: { replicas: { type: 'integer' } } },
                },
              },
            },
          },
        ],
      },
    }),
  });
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
  await apply(
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'engine' },
      spec: { clusterIP: 'None', selector: { app: 'engine' }, ports: [{ port: 8080 }] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'engine' },
      spec: {
        serviceName: 'engine',
        replicas: 1,
        selector: { matchLabels: { app: 'engine' } },
        template: {
          metadata: { labels: { app: 'engine' } },
          spec: podSpec([container('engine', ['/bin/httpd', '-f', '-p', '8080', '-h', '/www'])], {
            nodeSelector: { [key]: id },
            tolerations: [{ key, operator: 'Equal', value: id, effect: 'NoSchedule' }],
          }),
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', labels: { app: 'stray' } },
      spec: podSpec([container('stray', ['/bin/sleep', '3600'])]),
    },
  );
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
