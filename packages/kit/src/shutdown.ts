import type { Logger } from './logger.ts';

export interface GracefulShutdownOptions {
  logger: Logger;
  /**
   * How long close() has for in-flight work (SHUTDOWN_TIMEOUT_MS); close() itself enforces it on
   * connections (see http/close.ts) and then flushes.
   */
  timeoutMs: number;
  /** After timeoutMs plus this, the process exits 1 even if close() has not finished (default 5 s). */
  graceMs?: number;
  close: () => Promise<void>;
  signals?: NodeJS.Signals[];
  /** Injectable for tests; default process.exit. */
  exit?: (code: number) => void;
}

/**
 * Kubernetes sends SIGTERM and waits terminationGracePeriodSeconds: the first signal drains
 * (close servers, flush stores and telemetry), a second one (an impatient operator's Ctrl-C) exits
 * at once. If close() hangs even past its own deadline, a last-resort timer exits 1.
 * Returns a function that removes the handlers; once a shutdown has begun, the last-resort timer
 * stays armed (close() itself may remove the handlers).
 */
export function installGracefulShutdown(opts: GracefulShutdownOptions): () => void {
  const signals = opts.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const lastResortMs = opts.timeoutMs + (opts.graceMs ?? 5000);
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
      opts.logger.error({ timeoutMs: lastResortMs }, 'shutdown did not finish in time, exiting');
      finish(1);
    }, lastResortMs);
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
  };
}
