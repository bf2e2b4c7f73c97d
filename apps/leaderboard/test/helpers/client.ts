/**
 * The leaderboard's public API for the end-to-end suites (scores, top list), on the target that
 * LEADERBOARD_TEST_TARGET names:
 * - `inject` (default): every role in this process, requests through fastify's inject;
 * - `api`: `tessera run leaderboard api` as its own process, over real HTTP;
 * - `serve`: the embedded platform `tessera serve` as its own process, over real HTTP.
 * The suites assert the same things on each; test/e2e runs them on the processes.
 */
import { launchTessera } from '@tessera/testkit';
import type { Test } from 'tap';
import { SECRET, startLeaderboard, tempDataDir } from './app.ts';
import { authHeaders } from './auth-headers.ts';

export interface ApiResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests assert on the shape
}

export interface LeaderboardApi {
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options?: { scopes?: string[]; body?: unknown },
  ): Promise<ApiResponse>;
}

export type TestTarget = 'inject' | 'api' | 'serve';

export function testTarget(): TestTarget {
  const target = process.env.LEADERBOARD_TEST_TARGET ?? 'inject';
  if (target !== 'inject' && target !== 'api' && target !== 'serve') {
    throw new Error(`LEADERBOARD_TEST_TARGET must be inject, api or serve (got ${target})`);
  }
  return target;
}

export async function startLeaderboardApi(
  t: Test,
  options: { env?: Record<string, string> } = {},
): Promise<LeaderboardApi> {
  const target = testTarget();
  if (target === 'inject') return startLeaderboard(t, options);
  const args = target === 'api' ? ['run', 'leaderboard', 'api'] : ['serve'];
  const server = await launchTessera(args, {
    env: { DATA_DIR: tempDataDir(t), AUTH_JWT_SECRET: SECRET, ...options.env },
  });
  t.teardown(async () => {
    await server.stop();
  });
  const headersFor = authHeaders(SECRET);
  return {
    async call(method, url, { scopes, body } = {}) {
      const headers = await headersFor(scopes);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${server.url}${url}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        statusCode: res.status,
        headers: Object.fromEntries(res.headers),
        body: text,
        json: () => JSON.parse(text) as unknown,
      };
    },
  };
}
