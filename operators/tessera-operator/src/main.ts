/**
 * `tessera-operator`: in a pod it uses the ServiceAccount's credentials, elsewhere the KUBECONFIG;
 * SIGTERM gives the Lease up at once, so the standby takes over without waiting for it to expire.
 */
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '@tessera/kit';
import { cleanup } from './cleanup.ts';
import { readOperatorConfig } from './config.ts';
import { startOperator } from './operator.ts';
import { clockFrom } from './runtime/clock.ts';
import { createLogger } from './runtime/logger.ts';

/** `tessera-operator cleanup` (the chart's pre-delete hook): CLEANUP_NAMESPACE, CLEANUP_SELECTOR. */
async function runCleanup(): Promise<void> {
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  const config = new KubeConfig();
  config.loadFromDefault();
  const namespace = process.env.CLEANUP_NAMESPACE ?? '';
  const labelSelector = process.env.CLEANUP_SELECTOR ?? '';
  if (namespace === '' || labelSelector === '') {
    throw new ConfigError('cleanup needs CLEANUP_NAMESPACE and CLEANUP_SELECTOR');
  }
  const deleted = await cleanup({ config, namespace, labelSelector, timeoutMs: 120_000, logger });
  logger.info({ deleted }, 'cleanup done');
}

async function main(): Promise<void> {
  if (process.argv[2] === 'cleanup') return runCleanup();
  const settings = readOperatorConfig();
  const logger = createLogger(settings.LOG_LEVEL);
  const config = new KubeConfig();
  config.loadFromDefault();
  const operator = await startOperator({
    config,
    logger,
    watchNamespace: settings.WATCH_NAMESPACE || undefined,
    leaseNamespace: settings.POD_NAMESPACE,
    identity: settings.POD_NAME || hostname(),
    image: settings.TESSERA_IMAGE,
    port: settings.OPERATOR_PORT,
    resyncMs: settings.OPERATOR_RESYNC_SECONDS * 1000,
    ...(settings.OPERATOR_CLOCK_START === undefined
      ? {}
      : { clock: clockFrom(Date.parse(settings.OPERATOR_CLOCK_START)) }),
    onFatal: () => process.exit(1),
  });
  logger.info(
    { url: operator.health.url, clockStart: settings.OPERATOR_CLOCK_START },
    'tessera-operator listening',
  );
  const shutdown = () => {
    operator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`tessera-operator: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
