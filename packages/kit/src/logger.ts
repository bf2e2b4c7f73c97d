import { pino } from 'pino';
import type { Logger } from 'pino';

export type { Logger };

/** One JSON logger per process; fastify gets it as its `loggerInstance`. */
export function createLogger(opts: { level: string; name: string }): Logger {
  return pino({
    name: opts.name,
    level: opts.level,
    // Bearer tokens must never reach the logs, even when a debug serializer includes headers.
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  });
}
