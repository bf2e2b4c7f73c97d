/**
 * The read every trading client makes all the time, one of its own orders
 * (`GET /v1/order/{id}`), answered before fastify when it is plain (see the kit's fast-routes.ts):
 * a canonical id and nothing else in the request target, from a token already verified with the
 * `trade` scope. The body is the route's (orderJson: the response schema's fields in its order);
 * anything else — a query, an id the params schema would coerce or refuse, an unknown order or
 * another account's — takes the full route, which answers it (EX_ORDER_NOT_FOUND for the last two).
 *
 * The public book reads (`/marketdata/orderBook/L2`, `L3`) are not answered here: the kit's fast
 * answers take only requests with a known bearer token and a scope, and those routes have neither.
 */
import type { FastifyInstance } from 'fastify';
import type { ExchangeService } from '../service.ts';
import { orderJson } from './fast-order.ts';

const ORDER_PREFIX = '/v1/order/';
/** 1 to 9,007,199,254,740,991 written plainly (no sign, no leading zero, no query); checked for range below. */
const plainId = /^[1-9][0-9]{0,15}$/;

/** The order id in a request target the fast read takes as it is; else undefined. */
export function plainOrderId(url: string): number | undefined {
  if (!url.startsWith(ORDER_PREFIX)) return undefined;
  const text = url.slice(ORDER_PREFIX.length);
  if (!plainId.test(text)) return undefined;
  const id = Number(text);
  return id <= Number.MAX_SAFE_INTEGER ? id : undefined;
}

export function addFastReads(app: FastifyInstance, service: ExchangeService): void {
  app.addFastAnswer({
    route: '/v1/order/:id',
    scope: 'trade',
    answer(url, principal) {
      const id = plainOrderId(url);
      if (id === undefined) return undefined;
      const order = service.ownOrder(principal.sub, id);
      return order === undefined ? undefined : orderJson(order);
    },
  });
}
