/** Mail's routes on a kit app (as the platform will mount them), driven with app.inject. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createAuthenticator, createHttpApp, createLogger, mintToken } from '@tessera/kit';
import type { Test } from 'tap';
import { mailRoutes } from '../../src/http/routes.ts';
import { registerQueueMetrics } from '../../src/queue-metrics.ts';
import { servfail, startTestMail, type TestMail } from './mail.ts';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestApi {
  readonly app: FastifyInstance;
  readonly mail: TestMail;
  call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    options?: { user?: string; scopes?: string[]; body?: unknown },
  ): Promise<LightMyRequestResponse>;
  token(user: string, scopes?: string[]): Promise<string>;
}

export async function startApi(
  t: Test,
  options: {
    env?: Record<string, string>;
    rateLimit?: boolean;
    eventCatchUpMs?: number;
    /** Also listen for SMTP (on a free port) with real DNS at this server. */
    smtp?: boolean;
  } = {},
): Promise<TestApi> {
  const mail = await startTestMail(t, {
    env: options.env,
    resolver: servfail,
    extra: { smtpIn: options.smtp === true },
  });
  const app = await createHttpApp({
    name: 'mail-test',
    version: '0.0.0',
    logger: createLogger({ level: 'silent', name: 'test' }),
    authenticator: createAuthenticator({ secret: SECRET }),
    rateLimitEnabled: options.rateLimit ?? false,
  });
  await app.register(mailRoutes, {
    service: mail.service,
    sendLimitPerMinute: Number(options.env?.MAIL_SEND_LIMIT_PER_MINUTE ?? 60),
    sendBodyLimit: 2 * 1024 * 1024,
    ...(options.eventCatchUpMs === undefined ? {} : { eventCatchUpMs: options.eventCatchUpMs }),
  });
  registerQueueMetrics(app.metrics, mail.ports.queue);
  await app.ready();
  t.teardown(() => app.close());
  const tokens = new Map<string, string>();
  const tokenOf = async (user: string, scopes = ['mail']): Promise<string> => {
    const key = `${user} ${scopes.join(' ')}`;
    let token = tokens.get(key);
    if (token === undefined) {
      token = await mintToken({ secret: SECRET, sub: user, scopes });
      tokens.set(key, token);
    }
    return token;
  };
  return {
    app,
    mail,
    token: tokenOf,
    async call(method, url, { user, scopes = ['mail'], body } = {}) {
      const headers: Record<string, string> = {};
      if (user !== undefined) headers.authorization = `Bearer ${await tokenOf(user, scopes)}`;
      return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    },
  };
}
