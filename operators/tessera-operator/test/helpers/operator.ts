/** An operator instance inside the test process, watching the test's namespace only. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Test } from 'tap';
import { startOperator, type OperatorOptions, type RunningOperator } from '../../src/operator.ts';
import { createLogger } from '../../src/runtime/logger.ts';

export async function testOperator(
  t: Test,
  config: KubeConfig,
  namespace: string,
  options: Partial<OperatorOptions> = {},
): Promise<RunningOperator> {
  const operator = await startOperator({
    config,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    watchNamespace: namespace,
    leaseNamespace: namespace,
    identity: 'operator-a',
    image: 'tessera:test',
    port: 0,
    host: '127.0.0.1',
    resyncMs: 250,
    leaseDurationSeconds: 2,
    renewMs: 400,
    retryMs: 150,
    defaultMetrics: false,
    players: () => Promise.resolve(undefined),
    ...options,
  });
  t.teardown(() => operator.stop());
  return operator;
}
