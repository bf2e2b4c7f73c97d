import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createAuthenticator, createLogger, createHttpApp, mintToken } from '@tessera/kit';
import type { Test } from 'tap';
import { readLeaderboardConfig } from '../../src/config.ts';
import { mountLeaderboard, type MountedLeaderboard } from '../../src/mount.ts';

export const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestLeaderboard {
  readonly app: FastifyInstance;
  readonly mounted: MountedLeaderboard;
  readonly dataDir: string;
  /** Sends a request with a token holding `scopes` (none: no Authorization header). */
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options?: { scopes?: string[]; body?: unknown },
  ): Promise<LightMyRequestResponse>;
  /** Closes the app and the stores (as a graceful shutdown does); the data stays. */
  close(): Promise<void>;
}

export function tempDataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-lb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The leaderboard mounted on a kit app, as the embedded platform mounts it, over `dataDir`. */
export async function startLeaderboard(
  t: Test,
  options: { dataDir?: string; env?: Record<string, string>; now?: () => number; rateLimit?: boolean } = {},
): Promise<TestLeaderboard> {
  const dataDir = options.dataDir ?? tempDataDir(t);
  const logger = createLogger({ level: 'silent', name: 'test' });
  const app = await createHttpApp({
    name: 'leaderboard-test',
    version: '0.0.0',
    logger,
    authenticator: createAuthenticator({ secret: SECRET }),
    rateLimitEnabled: options.rateLimit ?? true,
  });
  const config = readLeaderboardConfig({ LEADERBOARD_CHECKPOINT_INTERVAL_MS: '60000', ...options.env });
  const mounted = await mountLeaderboard(app, { config, dataDir, logger, now: options.now });
  await app.ready();
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await app.close();
    await mounted.close();
  };
  t.teardown(close);
  const tokens = new Map<string, string>();
  return {
    app,
    mounted,
    dataDir,
    close,
    async call(method, url, { scopes, body } = {}) {
      const headers: Record<string, string> = {};
      if (scopes !== undefined) {
        const key = scopes.join(' ');
        let token = tokens.get(key);
        if (token === undefined) {
          token = await mintToken({ secret: SECRET, sub: 'test-client', scopes });
          tokens.set(key, token);
        }
        headers.authorization = `Bearer ${token}`;
      }
      return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    },
  };
}

export const WRITE = ['scores:write'];
export const READ = ['scores:read'];
