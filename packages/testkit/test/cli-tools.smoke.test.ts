import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { tool } from '../src/tools.ts';

const run = promisify(execFile);
t.setTimeout(900_000); // a cold machine builds helm first (go install, a few minutes)

t.test('kubeconform runs', async (t) => {
  const kubeconform = await tool('kubeconform');
  const { stdout } = await run(kubeconform, ['-v']);
  t.ok(stdout.trim().length > 0, `kubeconform -v: ${stdout.trim()}`);
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
