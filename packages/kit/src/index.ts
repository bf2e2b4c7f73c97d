// The public surface of @tessera/kit: what the services, runners and tests use, listed name by name.
export {
  ConfigError,
  configError,
  logFormats,
  logLevels,
  parseConfig,
  platformSettings,
  readConfig,
  setting,
} from './config.ts';
export type { ConfigOf, ParsedConfig, PlatformConfig, Setting } from './config.ts';
export { createLogger, isInteractive, printBanner } from './logger.ts';
export type { LogFormat, Logger, LoggerOptions } from './logger.ts';
export { ProblemError, defineErrors, kitErrors } from './errors.ts';
export type { ErrorSpec, ErrorTable, ProblemFactory } from './errors.ts';
export { createAuthenticator, mintToken } from './auth.ts';
export type { Authenticator, AuthenticatorOptions, MintTokenOptions, Principal } from './auth.ts';
export { loadOrCreateSecret } from './secret.ts';
export { createHttpApp } from './http/app.ts';
export { closeWithDeadline } from './http/close.ts';
export type { HttpAppOptions } from './http/app.ts';
export { PAGES_CSP } from './http/pages.ts';
export type { PageMount } from './http/pages.ts';
export { problemResponse } from './http/problem-responses.ts';
export type { ReadinessCheck, ReadinessResult } from './http/fastify-types.ts';
export type { FastAnswer, PublicFastAnswer } from './http/fast-route-types.ts';
export {
  afterValue,
  asciiTable,
  objectCursor,
  readCount,
  readPlainString,
  skipText,
} from './http/compact-json-bytes.ts';
export type { BytesCursor } from './http/compact-json-bytes.ts';
export { serve } from './serve.ts';
export type { RunningService, ServeOptions, ServiceSelection } from './serve.ts';
export { defineService } from './service-descriptor.ts';
export type {
  ConfiguredService,
  OpenedService,
  RoleDescriptor,
  RoutesOptions,
  Service,
  ServiceContext,
  ServiceDescriptor,
  SettingsTable,
  StartedService,
  StopRole,
} from './service-descriptor.ts';
export type { Telemetry } from './telemetry.ts';
export { NO_TRACE } from './trace-scope.ts';
export type { SpanRole, TraceScope } from './trace-scope.ts';
export { traceOf } from './http/telemetry-hooks.ts';
export { openSqlite, transaction } from './sqlite.ts';
export type { SqliteOptions } from './sqlite.ts';
export { registerWalMetrics } from './sqlite-wal-metrics.ts';
