/**
 * `tessera-operator` as a process: its settings from the environment (a bad one is a clear exit 2),
 * the Lease taken, /healthz answering, JSON logs, and SIGTERM giving the Lease up.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AppsV1Api, CoordinationV1Api } from '@kubernetes/client-node';
import { freePort } from '@tessera/testkit';
import t from 'tap';
import { apiServer, until } from './helpers/api-server.ts';
import { testOperator } from './helpers/operator.ts';

t.setTimeout(600_000);

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function operatorProcess(env: Record<string, string>, args: string[] = []) {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', MAIN, ...args],
    {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
  return { child, lines };
}

t.test('a missing setting is named, exit 2', async (t) => {
  const { child, lines } = operatorProcess({ OPERATOR_PORT: 'x' });
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 2);
  const text = lines.join('\n');
  t.match(text, /TESSERA_IMAGE/, 'the missing image');
  t.match(text, /OPERATOR_PORT/, 'and the bad port, in the same message');
});

t.test('leads, answers /healthz, logs JSON, and gives the Lease up on SIGTERM', async (t) => {
  const { config, namespace, kubeconfig } = await apiServer(t, 'main');
  const port = await freePort();
  const { child, lines } = operatorProcess({
    KUBECONFIG: kubeconfig,
    TESSERA_IMAGE: 'tessera:test',
    WATCH_NAMESPACE: namespace,
    POD_NAMESPACE: namespace,
    POD_NAME: 'operator-0',
    OPERATOR_PORT: String(port),
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await until(
    () => `"controllers started" in the logs:\n${lines.join('\n')}`,
    () => lines.some((l) => l.includes('controllers started')),
  );
  const entries = lines.map((l) => JSON.parse(l) as { level: string; component: string; msg: string });
  t.ok(
    entries.every((e) => e.component === 'tessera-operator' && typeof e.level === 'string'),
    'structured logs',
  );
  t.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
  t.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
  const leases = config.makeApiClient(CoordinationV1Api);
  t.equal(
    (await leases.readNamespacedLease({ namespace, name: 'tessera-operator' })).spec?.holderIdentity,
    'operator-0',
  );
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 0, 'a clean exit');
  t.equal(
    (await leases.readNamespacedLease({ namespace, name: 'tessera-operator' })).spec?.holderIdentity,
    '',
    'the Lease is free for the next replica',
  );
});

t.test("cleanup deletes the release's boards and waits for the operator to finalize them", async (t) => {
  const { config, namespace, kubeconfig, custom } = await apiServer(t, 'cleanup');
  await testOperator(t, config, namespace).then((operator) => operator.leading);
  const target = { group: 'tessera.dev', version: 'v1alpha1', plural: 'leaderboards', namespace };
  for (const [name, release] of [
    ['mine', 'r1'],
    ['theirs', 'r2'],
  ] as const) {
    await custom.createNamespacedCustomObject({
      ...target,
      body: {
        apiVersion: 'tessera.dev/v1alpha1',
        kind: 'Leaderboard',
        metadata: { name, labels: { 'app.kubernetes.io/instance': release } },
        spec: {},
      },
    });
  }
  const apps = config.makeApiClient(AppsV1Api);
  const exists = (name: string) =>
    apps.readNamespacedDeployment({ namespace, name }).then(
      () => true,
      () => false,
    );
  await until(
    () => 'both boards reconciled',
    async () => (await exists('mine-api')) && (await exists('theirs-api')),
  );
  const { child, lines } = operatorProcess(
    {
      KUBECONFIG: kubeconfig,
      CLEANUP_NAMESPACE: namespace,
      CLEANUP_SELECTOR: 'app.kubernetes.io/instance=r1',
    },
    ['cleanup'],
  );
  const [code] = (await once(child, 'exit')) as [number];
  t.equal(code, 0, `cleanup exits 0:\n${lines.join('\n')}`);
  const left = (await custom.listNamespacedCustomObject(target)) as {
    items: { metadata: { name: string } }[];
  };
  t.same(
    left.items.map((i) => i.metadata.name),
    ['theirs'],
    "the release's board is gone, another release's stays",
  );
  t.notOk(await exists('mine-api'), 'its Deployment went with it (the finalizer ran)');
});
