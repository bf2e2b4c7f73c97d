import type { Logger } from './logger.ts';

export interface GracefulShutdownOptions {
  logger: Logger;
  /** After this long the process exits 1 even if close() has not finished. */
  timeoutMs: number;
  close: () => Promise<void>;
  signals?: NodeJS.Signals[];
  /** Injectable for tests; default process.exit. */
  exit?: (code: number) => void;
}

/**
 * Kubernetes sends SIGTERM and waits terminationGracePeriodSeconds: the first signal drains
 * (close servers, flush telemetry), a second one (an impatient operator's Ctrl-C) exits at once.
 * Returns a function that removes the handlers.
 */
export function installGracefulShutdown(opts: GracefulShutdownOptions): () => void {
  const signals = opts.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let shuttingDown = false;
  let exited = false;
  let timer: NodeJS.Timeout | undefined;

  const finish = (code: number) => {
    if (exited) return;
    exited = true;
    clearTimeout(timer);
    exit(code);
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      opts.logger.warn({ signal }, 'second signal received, exiting immediately');
      finish(1);
      return;
    }
    shuttingDown = true;
    opts.logger.info({ signal, timeoutMs: opts.timeoutMs }, 'shutting down');
    timer = setTimeout(() => {
      opts.logger.error({ timeoutMs: opts.timeoutMs }, 'shutdown timed out');
      finish(1);
    }, opts.timeoutMs);
    opts.close().then(
      () => {
        opts.logger.info('shutdown complete');
        finish(0);
      },
      (error: unknown) => {
        opts.logger.error({ err: error }, 'shutdown failed');
        finish(1);
      },
    );
  };

  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
    clearTimeout(timer);
  };
}
