/** The exchange's routes in an app, and clients that call them as an account (routes tests). */
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { exchangeRoutes } from '../../src/http/routes.ts';
import { exchangeApp } from './exchange-app.ts';

export interface Client {
  (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }>;
}

export async function start(
  t: Test,
  tradeLimitPerMinute = 1_000,
): Promise<{
  app: FastifyInstance;
  as: (sub: string, ...scopes: string[]) => Promise<Client>;
  anonymous: Client;
}> {
  const { app, token } = await exchangeApp(t, {
    register: (app, service) =>
      app.register(exchangeRoutes, { service, tradeLimitPerMinute, readLimitPerMinute: 1_000 }),
  });
  const client =
    (token?: string): Client =>
    async (method, url, body) => {
      const res = await app.inject({
        method,
        url,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    };
  return {
    app,
    anonymous: client(),
    as: async (sub, ...scopes) => client(await token(sub, ...scopes)),
  };
}

export const order = (
  side: string,
  price: number,
  quantity: number,
  extra: Record<string, unknown> = {},
) => ({
  symbol: 'AAPL',
  side,
  price,
  orderType: 'limit',
  quantity,
  ...extra,
});
