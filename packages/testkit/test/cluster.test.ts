import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { cluster, importImage, parseAssignments } from '../src/cluster.ts';

const run = promisify(execFile);

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

const IMAGE_SCRIPT = fileURLToPath(new URL('../../../tools/image.sh', import.meta.url));

t.test('tools/image.sh writes the same OCI image for the same directory, with its config', async (t) => {
  const dir = t.testdir({ rootfs: { bin: { app: '#!/bin/sh\necho hi\n' } }, out: {} });
  const build = (output: string, ...extra: string[]) =>
    run('bash', [
      IMAGE_SCRIPT,
      ...[
        '--rootfs',
        join(dir, 'rootfs'),
        '--name',
        'tessera.local/app:1',
        '--output',
        join(dir, 'out', output),
      ],
      ...['--entrypoint', '["/bin/app"]', '--env', 'MODE=test', '--user', '1000:1000', '--label', 'a=b=c'],
      ...extra,
    ]);
  const first = parseAssignments((await build('a.tar')).stdout);
  const second = parseAssignments((await build('b.tar')).stdout);
  t.match(first.get('DIGEST'), /^sha256:[0-9a-f]{64}$/);
  t.equal(second.get('DIGEST'), first.get('DIGEST'), 'the digest does not depend on when it was built');
  t.same(
    readFileSync(join(dir, 'out', 'a.tar')),
    readFileSync(join(dir, 'out', 'b.tar')),
    'nor does the tarball',
  );

  const layout = join(dir, 'layout');
  mkdirSync(layout);
  await run('tar', ['-xf', join(dir, 'out', 'a.tar'), '-C', layout]);
  const blob = (digest: string) =>
    JSON.parse(readFileSync(join(layout, 'blobs', 'sha256', digest.slice(7)), 'utf8'));
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as {
    manifests: { digest: string; annotations: Record<string, string> }[];
  };
  t.equal(index.manifests[0]!.annotations['io.containerd.image.name'], 'tessera.local/app:1');
  t.equal(index.manifests[0]!.digest, first.get('DIGEST'));
  const manifest = blob(index.manifests[0]!.digest) as { config: { digest: string } };
  const config = blob(manifest.config.digest) as { config: Record<string, unknown> };
  t.same(config.config, {
    Entrypoint: ['/bin/app'],
    Env: ['MODE=test'],
    User: '1000:1000',
    Labels: { a: 'b=c' },
    ExposedPorts: {},
  });
});

t.test('tools/image.sh refuses a short image name and a malformed entrypoint', async (t) => {
  const dir = t.testdir({ rootfs: {} });
  const build = (...args: string[]) => run('bash', [IMAGE_SCRIPT, '--rootfs', join(dir, 'rootfs'), ...args]);
  await t.rejects(build('--name', 'app:1'), { message: /must be a full reference/ });
  await t.rejects(build('--name', 'tessera.local/app:1', '--entrypoint', '/bin/app'), {
    message: /JSON array of strings/,
  });
});
