/**
 * A short k6 run through the cluster's ingress (tools/k6.sh, 5 s at low rates): its exit code and
 * the metrics of its summary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@tessera/testkit';
import type { Test } from 'tap';
import { run } from './helm.ts';

const K6 = fileURLToPath(new URL('../../../tools/k6.sh', import.meta.url));

export type K6Metrics = Record<
  string,
  { count?: number; rate?: number; value?: number; med?: number; 'p(99)'?: number }
>;

export interface K6Target {
  readonly namespace: string;
  readonly ingressUrl: string;
  readonly host: string;
  readonly secret: string;
}

/** Runs k6; a failed run's output goes to `t`'s comments. */
export async function k6ThroughIngress(t: Test, target: K6Target): Promise<{ code: number; m: K6Metrics }> {
  const dir = tempDir(t, 'tessera-e2e-k6-');
  const summary = join(dir, 'summary.json');
  const code = await run('bash', [K6, '--quiet', '--no-color', '--summary-export', summary], {
    env: {
      ...process.env,
      NAMESPACE: target.namespace,
      INGRESS_URL: target.ingressUrl,
      HOST: target.host,
      AUTH_JWT_SECRET: target.secret,
      DURATION: '5s',
      WRITE_RATE: '40',
      TOP_RATE: '20',
      RANK_RATE: '20',
      PLAYERS: '200',
      P99_MS: '1000',
    },
    maxBuffer: 16 << 20,
    timeout: 300_000,
  }).then(
    () => 0,
    (error: { code?: number; stdout?: string; stderr?: string }) => {
      t.comment(error.stdout ?? '', error.stderr ?? '');
      return error.code ?? -1;
    },
  );
  const m = (JSON.parse(readFileSync(summary, 'utf8')) as { metrics: K6Metrics }).metrics;
  return { code, m };
}
