/**
 * A process from the environment: the platform's settings and every service's, read in one pass
 * (one message names every bad variable); then logger, auth, TLS, telemetry, the HTTP app with the
 * services' routes, listen, and graceful shutdown. `tessera serve` runs every role of every
 * service here; `tessera run <service> <role>` runs one.
 */
import type { FastifyInstance } from 'fastify';
import { createAuthenticator } from './auth.ts';
import { configError, parseConfig, platformSettings } from './config.ts';
import type { PlatformConfig } from './config.ts';
import { createHttpApp } from './http/app.ts';
import { closeWithDeadline } from './http/close.ts';
import { installPages } from './http/pages.ts';
import type { PageMount } from './http/pages.ts';
import { loadTls } from './http/tls.ts';
import { keepHeapBetweenBursts } from './heap-between-bursts.ts';
import { createLogger, isInteractive, printBanner } from './logger.ts';
import type { Logger } from './logger.ts';
import { loadOrCreateSecret } from './secret.ts';
import type { ConfiguredService, Service, StartedService } from './service-descriptor.ts';
import { installGracefulShutdown } from './shutdown.ts';
import { startTelemetry } from './telemetry.ts';

/** A service this process runs, and which of its roles (default: every role). */
export interface ServiceSelection {
  readonly service: Service;
  readonly roles?: readonly string[];
}

export interface ServeOptions {
  name: string;
  version: string;
  description?: string;
  /** Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Install SIGTERM/SIGINT handlers that close the process (default true). */
  handleSignals?: boolean;
  /** The clock (epoch ms) the services use; tests move it. */
  now?: () => number;
  services: readonly ServiceSelection[];
  /** Pages of the process itself (beside the services' own), e.g. the platform's sign-in page. */
  pages?: readonly PageMount[];
  /**
   * Routes of the process itself, added after the services'; `secret` is undefined when tokens
   * come from a JWKS (the platform's development sign-in is absent then).
   */
  routes?: (
    app: FastifyInstance,
    context: { platform: PlatformConfig; secret: string | undefined },
  ) => Promise<void> | void;
  /** Lines shown once listening; `secret` is undefined when tokens come from a JWKS. */
  banner?: (
    url: string,
    context: { platform: PlatformConfig; secret: string | undefined },
  ) => readonly string[];
}

export interface RunningService {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly platform: PlatformConfig;
  readonly logger: Logger;
  /** Closes the app (and with it the services' roles and stores) and flushes telemetry; idempotent. */
  close(): Promise<void>;
}

interface Plan {
  readonly platform: PlatformConfig;
  readonly services: ReadonlyArray<{
    service: Service;
    roles: readonly string[];
    configured: ConfiguredService;
  }>;
}

/** Reads every setting of the platform and of each service, and checks the roles asked for. */
function plan(opts: ServeOptions): Plan {
  const env = opts.env ?? process.env;
  const platform = parseConfig(platformSettings, env);
  const problems = [...platform.problems];
  const services = opts.services.map(({ service, roles }) => {
    const known = Object.keys(service.roles);
    for (const role of roles ?? []) {
      if (!known.includes(role)) {
        problems.push(`${service.name} has no role "${role}" (its roles: ${known.join(', ')})`);
      }
    }
    const configured = service.configure(env);
    problems.push(...configured.problems);
    return { service, roles: roles ?? known, configured };
  });
  if (problems.length > 0) throw configError(problems);
  return { platform: platform.values, services };
}

/** The process's own pages, then those of each service a role of which answers the API here. */
function pagesOf(opts: ServeOptions, services: Plan['services']): PageMount[] {
  const pages = [...(opts.pages ?? [])];
  for (const { service, roles } of services) {
    const servesApi = roles.some((role) => service.roles[role]?.servesApi === true);
    if (servesApi && service.pages !== undefined) pages.push(service.pages);
  }
  return pages;
}

function urlOf(app: FastifyInstance, https: boolean): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${https ? 'https' : 'http'}://${host}:${address.port}`;
}

export async function serve(opts: ServeOptions): Promise<RunningService> {
  // Reading everything first means a misconfigured pod fails before it opens any file or port.
  const { platform, services } = plan(opts);
  keepHeapBetweenBursts();
  const tls = loadTls(platform.TLS_CERT_FILE, platform.TLS_KEY_FILE);
  const logger = createLogger({ level: platform.LOG_LEVEL, name: opts.name, format: platform.LOG_FORMAT });
  // With an identity provider configured, a generated secret would only widen what is accepted.
  const secret =
    platform.AUTH_JWKS_URL !== undefined && platform.AUTH_JWT_SECRET === undefined
      ? undefined
      : loadOrCreateSecret(platform.DATA_DIR, platform.AUTH_JWT_SECRET);
  const authenticator = createAuthenticator({
    secret,
    jwksUrl: platform.AUTH_JWKS_URL,
    issuer: platform.AUTH_ISSUER,
    audience: platform.AUTH_AUDIENCE,
  });
  const telemetry = await startTelemetry({
    serviceName: platform.OTEL_SERVICE_NAME,
    endpoint: platform.OTEL_EXPORTER_OTLP_ENDPOINT,
  });

  // Several replicas behind one address share their callers' budgets through Redis. Its client is
  // imported only then: a process without it keeps ioredis' modules out of its heap.
  const rateLimitRedis =
    platform.REDIS_URL === undefined ||
    (!platform.RATE_LIMIT_ENABLED && platform.AUTH_FAILURE_LIMIT_PER_MINUTE === 0)
      ? undefined
      : (await import('./http/rate-limit-redis.ts')).openRateLimitRedis({
          url: platform.REDIS_URL,
          keyPrefix: platform.RATE_LIMIT_REDIS_PREFIX,
          logger,
        });

  const app = await createHttpApp({
    name: opts.name,
    version: opts.version,
    description: opts.description,
    logger,
    authenticator,
    rateLimitEnabled: platform.RATE_LIMIT_ENABLED,
    tls,
    telemetry,
    requestTimeoutMs: platform.HTTP_REQUEST_TIMEOUT_MS,
    maxUrlLength: platform.HTTP_MAX_URL_LENGTH,
    fastFront: platform.HTTP_FAST_FRONT,
    authFailureLimitPerMinute: platform.AUTH_FAILURE_LIMIT_PER_MINUTE,
    trustProxy: platform.TRUST_PROXY,
    rateLimitRedis,
  });
  if (rateLimitRedis !== undefined) {
    app.addHook('onClose', async () => {
      await rateLimitRedis.quit().catch(() => rateLimitRedis.disconnect());
    });
  }

  const started: StartedService[] = [];
  // The app closes after it stopped taking requests: then the roles stop and the stores flush.
  app.addHook('onClose', async () => {
    for (const service of [...started].reverse()) await service.close();
  });
  let closing: Promise<void> | undefined;
  let uninstall = () => {};
  const close = () => {
    closing ??= (async () => {
      uninstall();
      try {
        // In-flight requests get SHUTDOWN_TIMEOUT_MS; then every connection closes and onClose runs.
        await closeWithDeadline(app, platform.SHUTDOWN_TIMEOUT_MS, logger);
      } finally {
        await telemetry?.shutdown();
      }
    })();
    return closing;
  };

  try {
    for (const { service, roles, configured } of services) {
      const context = {
        logger: logger.child({ service: service.name }),
        telemetry,
        platform,
        now: opts.now ?? Date.now,
        roles,
      };
      const running = await configured.start(context);
      started.push(running);
      await running.attach(app);
    }
    await opts.routes?.(app, { platform, secret });
    await installPages(app, pagesOf(opts, services));
    await app.listen({ port: platform.PORT, host: platform.HOST });
  } catch (error) {
    await close();
    throw error;
  }

  if (opts.handleSignals ?? true) {
    uninstall = installGracefulShutdown({ logger, timeoutMs: platform.SHUTDOWN_TIMEOUT_MS, close });
  }
  const url = urlOf(app, tls !== undefined);
  logger.info({ url }, `${opts.name} listening`);
  const banner = [...(opts.banner?.(url, { platform, secret }) ?? []), ...started.flatMap((s) => s.banner)];
  // A person at a terminal reads a banner; a cluster's collector reads JSON lines.
  if (isInteractive && platform.LOG_FORMAT !== 'json') printBanner(banner);
  else for (const line of banner) logger.info(line);
  return { app, url, platform, logger, close };
}
