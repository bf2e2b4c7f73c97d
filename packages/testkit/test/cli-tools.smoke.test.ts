import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { tool, toolCache, toolsPath } from '../src/tools.ts';

const run = promisify(execFile);
t.setTimeout(1_800_000); // a cold machine builds helm, helm-unittest and ct first (go install, minutes)

t.test('kubeconform runs', async (t) => {
  const kubeconform = await tool('kubeconform');
  const { stdout } = await run(kubeconform, ['-v']);
  t.match(
    stdout.trim(),
    /^v\d+\.\d+\.\d+$/,
    `kubeconform -v: ${stdout.trim()} (its release, not "development")`,
  );
});

t.test('helm 3 creates, lints and renders a chart for a given Kubernetes version', async (t) => {
  const helm = await tool('helm');
  const { stdout: version } = await run(helm, ['version', '--short']);
  t.match(version, /^v3\./);
  const dir = mkdtempSync(join(tmpdir(), 'tessera-helm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(dir, 'cache'),
    HELM_CONFIG_HOME: join(dir, 'config'),
    HELM_DATA_HOME: join(dir, 'data'),
  };
  await run(helm, ['create', join(dir, 'smoke')], { env });
  await run(helm, ['lint', join(dir, 'smoke')], { env });
  const { stdout } = await run(helm, ['template', 'smoke', join(dir, 'smoke'), '--kube-version', '1.33.0'], {
    env,
  });
  t.match(stdout, /kind: Deployment/);
});

/** The standard output of a command that must fail (a non-zero exit); an error if it succeeded. */
async function failure(command: Promise<{ stdout: string }>): Promise<string> {
  try {
    await command;
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? '';
  }
  throw new Error('the command succeeded, but it should have failed');
}

/** A chart made by `helm create` in a temporary directory, with helm's state kept there too. */
async function scratchChart(t: Test): Promise<{ chart: string; env: NodeJS.ProcessEnv }> {
  const helm = await tool('helm');
  const dir = mkdtempSync(join(tmpdir(), 'tessera-chart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    PATH: toolsPath(),
    HELM_CACHE_HOME: join(dir, 'cache'),
    HELM_CONFIG_HOME: join(dir, 'config'),
    HELM_DATA_HOME: join(dir, 'data'),
  };
  const chart = join(dir, 'charts', 'smoke');
  mkdirSync(join(dir, 'charts'));
  await run(helm, ['create', chart], { env });
  return { chart, env };
}

const UNIT_TEST = (replicas: number) => `suite: deployment
templates:
  - deployment.yaml
tests:
  - it: sets the replica count from the values
    set:
      replicaCount: 3
    asserts:
      - isKind:
          of: Deployment
      - equal:
          path: spec.replicas
          value: ${replicas}
`;

t.test("helm-unittest runs a chart's unit tests, and fails on a wrong expectation", async (t) => {
  const unittest = await tool('helm-unittest');
  const { chart, env } = await scratchChart(t);
  mkdirSync(join(chart, 'tests'));
  writeFileSync(join(chart, 'tests', 'deployment_test.yaml'), UNIT_TEST(3));
  const { stdout } = await run(unittest, [chart], { env });
  t.match(stdout, /Tests:\s+1 passed/);
  writeFileSync(join(chart, 'tests', 'deployment_test.yaml'), UNIT_TEST(4));
  t.match(
    await failure(run(unittest, [chart], { env })),
    /Tests:\s+1 failed/,
    'a failed assertion fails the run',
  );
});

t.test('chart-testing lints a chart (yamale, yamllint with its rules, helm lint)', async (t) => {
  const ct = await tool('chart-testing');
  const { chart, env } = await scratchChart(t);
  const etc = join(toolCache(), 'ct-etc');
  const lint = (target: string) =>
    run(
      ct,
      [
        'lint',
        '--charts',
        target,
        '--chart-yaml-schema',
        join(etc, 'chart_schema.yaml'),
        '--lint-conf',
        join(etc, 'lintconf.yaml'),
        '--validate-maintainers=false',
        '--check-version-increment=false',
      ],
      { env, cwd: join(chart, '..', '..') },
    );
  const { stdout } = await lint(chart);
  t.match(stdout, /All charts linted successfully/);
  appendFileSync(join(chart, 'values.yaml'), 'extra: 1   \n'); // valid YAML, helm takes it
  t.match(await failure(lint(chart)), /trailing spaces/, "yamllint's rules apply");
});

t.test('etcdctl (Debian) runs', async (t) => {
  const etcdctl = await tool('etcd-client');
  const { stdout } = await run(etcdctl, ['version'], { env: { ...process.env, ETCDCTL_API: '3' } });
  t.match(stdout, /etcdctl version/);
});
