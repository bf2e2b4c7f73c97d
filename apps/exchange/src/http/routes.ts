import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { problemResponse } from '@tessera/kit';
import type { OrderStatus } from '../core/messages.ts';
import type { ExchangeService, OrderInput } from '../service.ts';
import {
  accountParamsSchema,
  accountReplySchema,
  depositBodySchema,
  killSwitchBodySchema,
  killSwitchReplySchema,
} from './schemas/accounts.ts';
import { executionQuerySchema, executionsReplySchema } from './schemas/executions.ts';
import {
  bookQuerySchema,
  candlesQuerySchema,
  candlesReplySchema,
  l1QuerySchema,
  l1ReplySchema,
  l2ReplySchema,
  l3ReplySchema,
} from './schemas/market-data.ts';
import {
  canceledReplySchema,
  cancelAllQuerySchema,
  orderBodySchema,
  orderParamsSchema,
  orderSchema,
  ordersQuerySchema,
  ordersReplySchema,
} from './schemas/orders.ts';
import { addFastOrder } from './fast-order.ts';
import { addFastReads } from './fast-reads.ts';
import { holdReadsUntilDurable } from './durable-reads.ts';

export interface ExchangeRoutesOptions {
  readonly service: ExchangeService;
  /** Requests per minute per caller on the trading routes and on the market data routes. */
  readonly tradeLimitPerMinute: number;
  readonly readLimitPerMinute: number;
}

const MINUTE = 60_000;
const trading = ['exchange: trading'];
const marketData = ['exchange: market data'];
const accounts = ['exchange: accounts'];

/** The account is the token's subject (the auth hook has run: these routes all require a scope). */
const caller = (request: FastifyRequest): string => request.principal!.sub;

/**
 * The exchange's HTTP API as one fastify plugin (spec/exchange.md; issue #12 for the additions:
 * cancel-all, accounts, deposits, the kill switch, L1/L3). Trading needs the `trade` scope and
 * acts for the token's subject; deposits and the kill switch need `admin`; market data is public.
 */
export const exchangeRoutes: FastifyPluginCallback<ExchangeRoutesOptions> = (app, options, done) => {
  const { service } = options;
  holdReadsUntilDurable(app, service);
  const trade = {
    auth: { scope: 'trade' },
    rateLimit: { max: options.tradeLimitPerMinute, timeWindow: MINUTE },
  };
  const admin = {
    auth: { scope: 'admin' },
    rateLimit: { max: options.tradeLimitPerMinute, timeWindow: MINUTE },
  };
  const read = { rateLimit: { max: options.readLimitPerMinute, timeWindow: MINUTE } };

  app.post<{ Body: OrderInput }>(
    '/v1/order',
    {
      schema: {
        tags: trading,
        summary: 'Place a limit order',
        body: orderBodySchema,
        response: {
          200: orderSchema,
          403: problemResponse,
          409: problemResponse,
          422: problemResponse,
          503: problemResponse,
        },
      },
      config: trade,
    },
    (request) => service.placeOrder(caller(request), request.body),
  );
  addFastOrder(app, service);

  app.delete<{ Params: { id: number } }>(
    '/v1/order/:id',
    {
      schema: {
        tags: trading,
        summary:
          'Cancel one of your orders (409 CANNOT_CANCEL_ALREADY_MATCHED when it is no longer in the book)',
        params: orderParamsSchema,
        response: { 200: orderSchema, 404: problemResponse, 409: problemResponse, 503: problemResponse },
      },
      config: trade,
    },
    (request) => service.cancelOrder(caller(request), request.params.id),
  );

  app.get<{ Params: { id: number } }>(
    '/v1/order/:id',
    {
      schema: {
        tags: trading,
        summary: 'One of your orders',
        params: orderParamsSchema,
        response: { 200: orderSchema, 404: problemResponse, 503: problemResponse },
      },
      config: trade,
    },
    (request, reply) => reply.send(service.order(caller(request), request.params.id)),
  );
  addFastReads(app, service);

  app.get<{ Querystring: { status?: OrderStatus; symbol?: string; cursor?: number; limit: number } }>(
    '/v1/orders',
    {
      schema: {
        tags: trading,
        summary: 'Your orders, oldest first, a page at a time',
        querystring: ordersQuerySchema,
        response: { 200: ordersReplySchema, 503: problemResponse },
      },
      config: trade,
    },
    (request, reply) => {
      const { status, symbol, cursor, limit } = request.query;
      return reply.send(service.orders(caller(request), { status, symbol, after: cursor, limit }));
    },
  );

  app.delete<{ Querystring: { symbol?: string } }>(
    '/v1/orders',
    {
      schema: {
        tags: trading,
        summary: 'Cancel all your open orders (of one symbol)',
        querystring: cancelAllQuerySchema,
        response: { 200: canceledReplySchema, 503: problemResponse },
      },
      config: trade,
    },
    async (request) => ({ data: await service.cancelAll(caller(request), request.query.symbol) }),
  );

  app.get<{ Querystring: { symbol?: string; orderId?: string; startTime?: number; endTime?: number } }>(
    '/execution',
    {
      schema: {
        tags: trading,
        summary: 'Your executions',
        querystring: executionQuerySchema,
        response: { 200: executionsReplySchema, 503: problemResponse },
      },
      config: trade,
    },
    (request, reply) => {
      const { symbol, orderId, startTime, endTime } = request.query;
      return reply.send(
        service.executions(caller(request), {
          symbol,
          orderId: orderId === undefined ? undefined : Number(orderId),
          startTime,
          endTime,
        }),
      );
    },
  );

  app.get<{ Querystring: { symbol: string } }>(
    '/marketdata/orderBook/L1',
    {
      schema: {
        tags: marketData,
        summary: 'Best bid and ask with their quantities',
        querystring: l1QuerySchema,
        response: { 200: l1ReplySchema, 400: problemResponse, 503: problemResponse },
      },
      config: read,
    },
    (request, reply) => reply.send(service.l1(request.query.symbol)),
  );

  app.get<{ Querystring: { symbol: string; depth: number } }>(
    '/marketdata/orderBook/L2',
    {
      schema: {
        tags: marketData,
        summary: 'Price levels with their quantities, best first',
        querystring: bookQuerySchema,
        response: { 200: l2ReplySchema, 503: problemResponse },
      },
      config: read,
    },
    (request, reply) => reply.send(service.l2(request.query.symbol, request.query.depth)),
  );

  app.get<{ Querystring: { symbol: string; depth: number } }>(
    '/marketdata/orderBook/L3',
    {
      schema: {
        tags: marketData,
        summary: 'The orders queued at each level, in time priority (no accounts)',
        querystring: bookQuerySchema,
        response: { 200: l3ReplySchema, 503: problemResponse },
      },
      config: read,
    },
    (request, reply) => reply.send(service.l3(request.query.symbol, request.query.depth)),
  );

  app.get<{ Querystring: { symbol: string; resolution: number; startTime: number; endTime: number } }>(
    '/marketdata/candles',
    {
      schema: {
        tags: marketData,
        summary: 'Candles of any resolution from the executions',
        querystring: candlesQuerySchema,
        response: { 200: candlesReplySchema, 503: problemResponse },
      },
      config: read,
    },
    (request, reply) => {
      const { symbol, resolution, startTime, endTime } = request.query;
      return reply.send(service.candles(symbol, resolution, startTime, endTime));
    },
  );

  app.post<{ Params: { account: string }; Body: { cash?: number; shares?: Record<string, number> } }>(
    '/v1/accounts/:account/deposits',
    {
      schema: {
        tags: accounts,
        summary: 'Deposit cash and shares into an account (admin)',
        params: accountParamsSchema,
        body: depositBodySchema,
        response: { 200: accountReplySchema, 422: problemResponse, 503: problemResponse },
      },
      config: admin,
    },
    (request) => service.deposit(request.params.account, request.body.cash, request.body.shares),
  );

  app.put<{ Params: { account: string }; Body: { on: boolean } }>(
    '/v1/accounts/:account/kill-switch',
    {
      schema: {
        tags: accounts,
        summary: "Turn an account's kill switch on (cancel all its orders, refuse new ones) or off (admin)",
        params: accountParamsSchema,
        body: killSwitchBodySchema,
        response: { 200: killSwitchReplySchema, 503: problemResponse },
      },
      config: admin,
    },
    (request) => service.setKillSwitch(request.params.account, request.body.on),
  );

  app.get(
    '/v1/accounts/me',
    {
      schema: {
        tags: accounts,
        summary: 'Your cash and shares, available and reserved',
        response: { 200: accountReplySchema, 503: problemResponse },
      },
      config: trade,
    },
    (request, reply) => reply.send(service.account(caller(request))),
  );
  done();
};
