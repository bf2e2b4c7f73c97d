/**
 * The chart as CI checks it: `helm lint --strict`, `helm template --kube-version` piped to
 * kubeconform with the schemas of the real API server and of the Tessera CRDs (strict: unknown
 * fields fail), helm-unittest's suites (charts/tessera/tests), and values.schema.json refusing
 * bad values with a message that names them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { backend, tempDir, tool } from '@tessera/testkit';
import t from 'tap';
import { CHART, failure, helmFor, run, VALUES } from './helpers/helm.ts';
import { getRaw, writeSchemas } from './helpers/kubeconform-schemas.ts';

t.setTimeout(1_200_000);

const KUBE_VERSION = 'v1.34.4';
const FULL = join(VALUES, 'full.yaml');

t.test('helm lint --strict: the default values, everything on, the dev and local values', async (t) => {
  const { helm, env } = await helmFor(t);
  const local = join(CHART, 'values-local.yaml');
  for (const values of [[], ['-f', FULL], ['-f', join(CHART, 'values-dev.yaml')], ['-f', local]]) {
    const { stdout } = await run(helm, ['lint', '--strict', CHART, ...values], { env });
    t.match(stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/, `lint ${values.join(' ') || '(defaults)'}`);
  }
});

t.test("helm-unittest: the templates' logic", async (t) => {
  const { env } = await helmFor(t);
  const unittest = await tool('helm-unittest');
  const { stdout } = await run(unittest, [CHART], { env });
  t.match(stdout, /Test Suites:\s+\d+ passed, \d+ total/);
  t.notMatch(stdout, /failed/);
});

/** Pipes `input` through a command; resolves with its output, rejects with it on a non-zero exit. */
function pipe(command: string, args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited ${code}:\n${output}`)),
    );
    child.stdin.end(input);
  });
}

t.test(
  `helm template --kube-version ${KUBE_VERSION} | kubeconform (API server and CRD schemas)`,
  async (t) => {
    const { helm, env } = await helmFor(t);
    const kubeconform = await tool('kubeconform');
    const server = await backend('kubernetes');
    t.teardown(() => server.stop());
    const config = new KubeConfig();
    config.loadFromFile(server.url);
    const schemas = join(tempDir(t, 'tessera-schemas-'), 'schemas');
    const count = writeSchemas(JSON.parse(await getRaw(config, '/openapi/v2')), schemas);
    t.ok(count > 50, `${count} schemas written`);
    const check = (manifests: string) =>
      pipe(
        kubeconform,
        [
          '-strict',
          '-summary',
          '-output',
          'text',
          '-kubernetes-version',
          KUBE_VERSION.slice(1),
          '-schema-location',
          join(schemas, '{{ .ResourceKind }}{{ .KindSuffix }}.json'),
          // The Prometheus Operator's kind: its schema is not the API server's to give.
          '-skip',
          'ServiceMonitor',
        ],
        manifests,
      );
    for (const values of [[], ['-f', FULL]]) {
      const { stdout } = await run(
        helm,
        ['template', 'tessera', CHART, '--namespace', 'games', '--kube-version', KUBE_VERSION, ...values],
        { env, maxBuffer: 16 * 1024 * 1024 },
      );
      const summary = await check(stdout);
      t.match(
        summary,
        /Summary: \d+ resources found .* Valid: \d+, Invalid: 0, Errors: 0, Skipped: [0-2]/,
        summary.trim(),
      );
      t.match(stdout, /kind: Leaderboard/, 'the Leaderboard resource is among them');
    }
    // A check that can fail: a field the Leaderboard schema does not know, and a bad enum.
    const bad = `apiVersion: tessera.dev/v1alpha1
kind: Leaderboard
metadata: {name: bad}
spec: {period: yearly, retentoin: 3}
`;
    const refused = await failure(check(bad));
    t.match(refused, /period/, `kubeconform names the bad enum: ${refused.trim()}`);
    t.match(refused, /retentoin/, 'and the unknown field');
  },
);

t.test('values.schema.json refuses bad values, naming them', async (t) => {
  const { helm, env } = await helmFor(t);
  const template = (...set: string[]) =>
    run(
      helm,
      ['template', 'tessera', CHART, '--kube-version', KUBE_VERSION, ...set.flatMap((s) => ['--set', s])],
      {
        env,
      },
    );
  t.match(await failure(template('leaderboard.period=yearly')), /\/leaderboard\/period/);
  t.match(await failure(template('auth.jwtSecret=short')), /\/auth\/jwtSecret/);
  t.match(await failure(template('operator.replicas=-1')), /\/operator\/replicas/);
  t.match(await failure(template('bogus=1')), /additional properties 'bogus' not allowed/);
  t.match(
    await failure(template('leaderboard.api.replicas=3')),
    /connections/,
    'more than one api replica needs shared stores (as the CRD says)',
  );
});
