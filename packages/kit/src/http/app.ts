/**
 * The fastify app every service starts from: services register their routes as plugins on it
 * and call listen. The order of the steps below is the order of the hooks on each request.
 */
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Authenticator } from '../auth.ts';
import type { Logger } from '../logger.ts';
import type { Telemetry } from '../telemetry.ts';
import { installAuthFailureLimit } from './auth-failures.ts';
import { installAuthHook } from './auth-hook.ts';
import { createClientErrorHandler, frameworkErrorHandler } from './client-errors.ts';
import './fastify-types.ts';
import { installHealth } from './health.ts';
import type { FastAnswer, FastWrite, PublicFastAnswer } from './fast-route-types.ts';
import { FastRoutes } from './fast-routes.ts';
import { guardPublicAnswers } from './public-answer-guard.ts';
import { replayDeclinedBodies } from './fast-write-bodies.ts';
import { installMetrics } from './metrics.ts';
import { installOpenApi } from './openapi.ts';
import { installProblemHandler } from './problem-handler.ts';
import { declareProblemResponses } from './problem-responses.ts';
import { installRateLimit } from './rate-limit.ts';
import { edgeServerFactory } from './server.ts';
import { installTelemetryHooks } from './telemetry-hooks.ts';
import { createValidatorCompiler } from './validation.ts';
import { installWebSockets } from './websockets.ts';

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
  /** A request (headers and body) must arrive within this; default 10 s (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Longer request targets are answered 414; default 8192 (HTTP_MAX_URL_LENGTH). */
  maxUrlLength?: number;
  /**
   * Plain HTTP where fast answers run: the fast routes are answered on the socket before
   * node:http (fast-front.ts); default false here, true in serve() (HTTP_FAST_FRONT).
   */
  fastFront?: boolean;
  /** Failed authentications per client address and minute; default 600, 0 for no limit. */
  authFailureLimitPerMinute?: number;
  /**
   * An ioredis client for the rate-limit counters (route limits and failed authentications), so
   * that every process of a service shares them; default: in memory, per process.
   */
  rateLimitRedis?: unknown;
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
  const requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
  const maxUrlLength = opts.maxUrlLength ?? 8192;
  // Fast answers skip fastify's hooks: only where those hooks would add nothing per request.
  const fast =
    opts.rateLimitEnabled === false && opts.telemetry === undefined && !opts.logger.isLevelEnabled('debug')
      ? new FastRoutes(opts.authenticator, opts.logger)
      : undefined;
  // Fastify's instance type depends on the server type; services only use the common surface.
  const app = Fastify({
    loggerInstance: opts.logger,
    // Two info lines per request would cost more than the request at 20,000/s: see logRequests.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimit,
    trustProxy: opts.trustProxy,
    // 0. The edge: deadlines, limits, and problem answers for what fails before routing.
    serverFactory: edgeServerFactory({
      requestTimeoutMs,
      maxUrlLength,
      tls: opts.tls,
      fast,
      fastFront: opts.fastFront === true,
    }),
    clientErrorHandler: createClientErrorHandler(opts.logger, requestTimeoutMs),
    frameworkErrors: frameworkErrorHandler,
    // A long path parameter is the schema's to reject (400 naming the field), not a 404.
    routerOptions: { maxParamLength: maxUrlLength },
    // While draining, a request on an open keep-alive connection is served as usual (fastify's
    // own 503 would leave in its uncoded shape); new connections are refused by the closed server.
    return503OnClosing: false,
  }) as unknown as FastifyInstance;
  // JSON only: a JSON body sent as text/plain is a 415, not a string handed to the schema.
  app.removeContentTypeParser('text/plain');

  // 1. Errors and validation: every failure below becomes a problem+json response.
  app.setValidatorCompiler(createValidatorCompiler(() => app.getSchemas()));
  installProblemHandler(app);
  // 2. Tracing first, so the span covers authentication and rate limiting too.
  if (opts.telemetry !== undefined) installTelemetryHooks(app, opts.telemetry);
  // 3. Request log (debug level), metrics and probes.
  logRequests(app, opts.logger);
  const observe = installMetrics(app);
  fast?.countWith(observe);
  app.decorate('addFastAnswer', (answer: FastAnswer) => fast?.add(answer));
  const checkPublic = guardPublicAnswers(app);
  app.decorate('addPublicFastAnswer', (answer: PublicFastAnswer) => {
    checkPublic(answer.route);
    fast?.addPublic(answer);
  });
  app.decorate('addFastWrite', (write: FastWrite) => fast?.addWrite(write));
  if (fast !== undefined) replayDeclinedBodies(app, fast);
  installHealth(app);
  // 4. Every route documents the problem answers the kit gives it.
  const authFailureLimitPerMinute = opts.authFailureLimitPerMinute ?? 600;
  declareProblemResponses(app, {
    rateLimitEnabled: opts.rateLimitEnabled ?? true,
    authFailuresLimited: authFailureLimitPerMinute > 0,
  });
  // 5. Authentication (onRequest), then rate limits keyed on its result. The failure limit is
  // installed first: @fastify/rate-limit decorates an app once, and its scope must get its own.
  const failures = await installAuthFailureLimit(app, {
    maxPerMinute: authFailureLimitPerMinute,
    redis: opts.rateLimitRedis,
  });
  installAuthHook(app, opts.authenticator, failures);
  app.decorate('authenticator', opts.authenticator);
  if (opts.rateLimitEnabled ?? true) await installRateLimit(app, opts.rateLimitRedis);
  // WebSocket routes (`{ websocket: true }`), for every service at once.
  await installWebSockets(app);
  // 6. OpenAPI (and its reference page at /docs) last among the plugins: it records the routes
  // services register afterwards.
  await installOpenApi(app, opts);
  return app;
}
