import type { FastifyInstance } from 'fastify';
import { createAuthenticator, mintToken } from '../../src/auth.ts';
import { createHttpApp } from '../../src/http/app.ts';
import type { HttpAppOptions } from '../../src/http/app.ts';
import { createLogger } from '../../src/logger.ts';

export const secret = 'test-secret-that-is-long-enough-0123456789';

export function token(scopes: readonly string[], sub = 'alice', ttlSeconds?: number): Promise<string> {
  return mintToken({ secret, sub, scopes, ttlSeconds });
}

/** An app with the kit's conventions, a silent logger and the test secret. */
export function testApp(overrides: Partial<HttpAppOptions> = {}): Promise<FastifyInstance> {
  return createHttpApp({
    name: 'kit-test',
    version: '1.2.3',
    description: 'kit test app',
    logger: createLogger({ level: 'silent', name: 'kit-test' }),
    authenticator: createAuthenticator({ secret }),
    ...overrides,
  });
}

export interface Problem {
  title: string;
  detail: string;
  status: number;
  code: string;
  [extra: string]: unknown;
}
