/**
 * A whole service process from the environment: platform settings, logger, auth, TLS,
 * telemetry, the HTTP app with the service mounted on it, listen, and graceful shutdown. Roles
 * and the embedded runner call this; tests that need finer control use createHttpApp directly.
 */
import type { FastifyInstance } from 'fastify';
import { createAuthenticator } from './auth.ts';
import { platformSettings, readConfig } from './config.ts';
import type { ConfigOf } from './config.ts';
import { createHttpApp } from './http/app.ts';
import { closeWithDeadline } from './http/close.ts';
import { loadTls } from './http/tls.ts';
import { createLogger } from './logger.ts';
import type { Logger } from './logger.ts';
import { loadOrCreateSecret } from './secret.ts';
import { installGracefulShutdown } from './shutdown.ts';
import { startTelemetry } from './telemetry.ts';
import type { Telemetry } from './telemetry.ts';

export type PlatformConfig = ConfigOf<typeof platformSettings>;

export interface ServeContext {
  readonly platform: PlatformConfig;
  readonly logger: Logger;
  readonly telemetry: Telemetry | undefined;
}

export interface ServeOptions {
  name: string;
  version: string;
  description?: string;
  /** Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Install SIGTERM/SIGINT handlers that close the service (default true). */
  handleSignals?: boolean;
  /** Registers the service's routes; close its resources in an app onClose hook. */
  mount: (app: FastifyInstance, context: ServeContext) => unknown;
  /** Lines logged once listening; `secret` is undefined when tokens come from a JWKS. */
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
  /** Closes the app (and with it the mounted service) and flushes telemetry; idempotent. */
  close(): Promise<void>;
}

function urlOf(app: FastifyInstance, https: boolean): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${https ? 'https' : 'http'}://${host}:${address.port}`;
}

export async function serve(opts: ServeOptions): Promise<RunningService> {
  // Reading everything first means a misconfigured pod fails before it opens any file or port.
  const platform = readConfig(platformSettings, opts.env ?? process.env);
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
  const telemetry = startTelemetry({
    serviceName: platform.OTEL_SERVICE_NAME,
    endpoint: platform.OTEL_EXPORTER_OTLP_ENDPOINT,
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
    authFailureLimitPerMinute: platform.AUTH_FAILURE_LIMIT_PER_MINUTE,
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
    await opts.mount(app, { platform, logger, telemetry });
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
  for (const line of opts.banner?.(url, { platform, secret }) ?? []) logger.info(line);
  return { app, url, platform, logger, close };
}
