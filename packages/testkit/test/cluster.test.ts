import t from 'tap';
import { cluster, importImage, parseAssignments } from '../src/cluster.ts';

t.test("the script's KEY=VALUE lines are read, other lines ignored", async (t) => {
  const printed = parseAssignments(
    'tools: cluster up in 40 s\nKUBECONFIG=/tmp/a=b\nINGRESS_URL=http://127.0.0.1:1\n',
  );
  t.same(
    [...printed],
    [
      ['KUBECONFIG', '/tmp/a=b'],
      ['INGRESS_URL', 'http://127.0.0.1:1'],
    ],
  );
});

t.test('a cluster given by the environment is used as it is, and never stopped', async (t) => {
  const given = await cluster({
    TEST_CLUSTER_KUBECONFIG: '/nowhere/kubeconfig',
    TEST_CLUSTER_INGRESS_URL: 'http://127.0.0.1:9',
  });
  t.equal(given.kubeconfig, '/nowhere/kubeconfig');
  t.equal(given.ingressUrl, 'http://127.0.0.1:9');
  t.equal(given.containerd, undefined);
  await given.stop();
  await t.rejects(importImage(given, { rootfs: '/nowhere', name: 'tessera.local/x:1' }), {
    message: /TEST_CLUSTER_CONTAINERD/,
  });
});

t.test('a kubeconfig without its ingress is refused', async (t) => {
  await t.rejects(cluster({ TEST_CLUSTER_KUBECONFIG: '/nowhere/kubeconfig' }), {
    message: /TEST_CLUSTER_INGRESS_URL/,
  });
});
