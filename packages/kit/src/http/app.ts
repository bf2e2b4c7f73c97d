/**
 * The fastify app every service starts from: services register their routes as plugins on it
 * and call listen. The order of the steps below is the order of the hooks on each request.
 */
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Authenticator } from '../auth.ts';
import type { Logger } from '../logger.ts';
import type { Telemetry } from '../telemetry.ts';
import { installAuthHook } from './auth-hook.ts';
import './fastify-types.ts';
import { installHealth } from './health.ts';
import { installMetrics } from './metrics.ts';
import { installOpenApi } from './openapi.ts';
import { installProblemHandler } from './problem-handler.ts';
import { declareProblemResponses } from './problem-responses.ts';
import { installRateLimit } from './rate-limit.ts';
import { installTelemetryHooks } from './telemetry-hooks.ts';
import { createValidatorCompiler } from './validation.ts';

export interface HttpAppOptions {
  /** OpenAPI info. */
  name: string;
  version: string;
  description?: string;
  logger: Logger;
  authenticator: Authenticator;
  /** Default true; false registers no limits (benchmarks). */
  rateLimitEnabled?: boolean;
  tls?: { cert: Buffer; key: Buffer };
  telemetry?: Telemetry;
  bodyLimit?: number;
  /** Fastify's trustProxy: behind an ingress, the client IP (the rate-limit key) is in X-Forwarded-For. */
  trustProxy?: FastifyServerOptions['trustProxy'];
}

/** One debug line per finished request; no hook at all unless the level is debug or lower. */
function logRequests(app: FastifyInstance, logger: Logger): void {
  if (!logger.isLevelEnabled('debug')) return;
  app.addHook('onResponse', (request, reply, done) => {
    request.log.debug(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: reply.elapsedTime },
      'request completed',
    );
    done();
  });
}

export async function createHttpApp(opts: HttpAppOptions): Promise<FastifyInstance> {
  const common = {
    loggerInstance: opts.logger,
    // Two info lines per request would cost more than the request at 20,000/s: see logRequests.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimit,
    trustProxy: opts.trustProxy,
  };
  // Fastify's instance type depends on the server type; services only use the common surface.
  const app = (opts.tls === undefined
    ? Fastify(common)
    : Fastify({ ...common, https: opts.tls })) as unknown as FastifyInstance;

  // 1. Errors and validation: every failure below becomes a problem+json response.
  app.setValidatorCompiler(createValidatorCompiler(() => app.getSchemas()));
  installProblemHandler(app);
  // 2. Tracing first, so the span covers authentication and rate limiting too.
  if (opts.telemetry !== undefined) installTelemetryHooks(app, opts.telemetry);
  // 3. Request log (debug level), metrics and probes.
  logRequests(app, opts.logger);
  installMetrics(app);
  installHealth(app);
  // 4. Every route documents the problem answers the kit gives it.
  declareProblemResponses(app, opts.rateLimitEnabled ?? true);
  // 5. Authentication (onRequest), then rate limits keyed on its result.
  installAuthHook(app, opts.authenticator);
  if (opts.rateLimitEnabled ?? true) await installRateLimit(app);
  // 6. OpenAPI last among the plugins: it records the routes services register afterwards.
  await installOpenApi(app, opts);
  return app;
}
