import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  createAuthenticator,
  createHttpApp,
  createLogger,
  parseConfig,
  platformSettings,
  readConfig,
  type StopRole,
} from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import type { Test } from 'tap';
import { authHeaders } from './auth-headers.ts';
import { leaderboardSettings } from '../../src/config.ts';
import { leaderboardDescriptor } from '../../src/descriptor.ts';
import type { LeaderboardInstance } from '../../src/instance.ts';

export const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestLeaderboard {
  readonly app: FastifyInstance;
  readonly instance: LeaderboardInstance;
  readonly dataDir: string;
  /** Sends a request with a token holding `scopes` (none: no Authorization header). */
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options?: { scopes?: string[]; body?: unknown },
  ): Promise<LightMyRequestResponse>;
  /** Closes the app, the roles and the stores (as a graceful shutdown does); the data stays. */
  close(): Promise<void>;
}

export function tempDataDir(t: Test): string {
  return tempDir(t, 'tessera-lb-');
}

/**
 * The leaderboard from its descriptor, every role in this process as `tessera serve` runs it, on
 * a kit app (requests through `inject`), over `dataDir`.
 */
export async function startLeaderboard(
  t: Test,
  options: { dataDir?: string; env?: Record<string, string>; now?: () => number; rateLimit?: boolean } = {},
): Promise<TestLeaderboard> {
  const dataDir = options.dataDir ?? tempDataDir(t);
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', name: 'test' });
  const app = await createHttpApp({
    name: 'leaderboard-test',
    version: '0.0.0',
    logger,
    authenticator: createAuthenticator({ secret: SECRET }),
    rateLimitEnabled: options.rateLimit ?? true,
  });
  // No archive grace unless a test asks: the month tests move the clock a few seconds past midnight.
  const env = {
    LEADERBOARD_CHECKPOINT_INTERVAL_MS: '60000',
    LEADERBOARD_ARCHIVE_GRACE_MS: '0',
    DATA_DIR: dataDir,
    ...options.env,
  };
  const config = readConfig(leaderboardSettings, env);
  const problems = leaderboardDescriptor.check?.(config) ?? [];
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const context = {
    logger,
    telemetry: undefined,
    platform: parseConfig(platformSettings, env).values,
    now: options.now ?? Date.now,
    roles: Object.keys(leaderboardDescriptor.roles),
  };
  const instance = await leaderboardDescriptor.open(config, context);
  const stops: StopRole[] = [];
  for (const role of Object.values(leaderboardDescriptor.roles)) {
    const stop = await role.start?.(instance, context);
    if (stop !== undefined) stops.push(stop);
  }
  await app.register(leaderboardDescriptor.routes, { config, instance });
  await app.ready();
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await app.close();
    for (const stop of stops) await stop();
    await instance.close();
  };
  t.teardown(close);
  const headersFor = authHeaders(SECRET);
  return {
    app,
    instance,
    dataDir,
    close,
    async call(method, url, { scopes, body } = {}) {
      const headers = await headersFor(scopes);
      return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    },
  };
}

export const WRITE = ['scores:write'];
export const READ = ['scores:read'];
