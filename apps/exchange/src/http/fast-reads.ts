/**
 * The reads every trading client makes all the time, answered before fastify when they are plain
 * (see the kit's fast-routes.ts), each taken at once and sent once what it shows is durable:
 * - one of its own orders (`GET /v1/order/{id}`): a canonical id and nothing else in the request
 *   target, from a token already verified with the `trade` scope. The body is the route's
 *   (orderJson: the response schema's fields in its order); anything else — a query, an id the
 *   params schema would coerce or refuse, an unknown order or another account's — takes the full
 *   route, which answers it (EX_ORDER_NOT_FOUND for the last two).
 * - the public book (`/marketdata/orderBook/L2` and `L3`): `?symbol=S` or `?symbol=S&depth=N`
 *   exactly, with a symbol and a depth the query schema takes as they are; an unknown symbol and
 *   every other form (other order, encoding, extra keys) take the full route. The book's levels
 *   are built with the response schema's keys in its order, so JSON.stringify gives its bytes.
 */
import type { FastifyInstance } from 'fastify';
import type { ExchangeService } from '../service.ts';
import { orderJson } from './fast-order.ts';
import { DEFAULT_BOOK_DEPTH, MAX_BOOK_DEPTH } from './schemas/market-data.ts';

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

/** `?symbol=S` or `?symbol=S&depth=N`, as the query schema would take them unchanged. */
const plainBookQuery = /^\?symbol=([A-Z][A-Z0-9.]{0,11})(?:&depth=([1-9][0-9]{0,3}))?$/;

export interface BookQuery {
  readonly symbol: string;
  readonly depth: number;
}

/** The symbol and depth of a plain book read at `path` (`/marketdata/orderBook/L2`); else undefined. */
export function plainBookRead(url: string, path: string): BookQuery | undefined {
  if (!url.startsWith(path)) return undefined;
  const match = plainBookQuery.exec(url.slice(path.length));
  if (match === null) return undefined;
  const depth = match[2] === undefined ? DEFAULT_BOOK_DEPTH : Number(match[2]);
  return depth <= MAX_BOOK_DEPTH ? { symbol: match[1]!, depth } : undefined;
}

const L2_PATH = '/marketdata/orderBook/L2';
const L3_PATH = '/marketdata/orderBook/L3';

export function addFastReads(app: FastifyInstance, service: ExchangeService): void {
  app.addFastAnswer({
    route: '/v1/order/:id',
    scope: 'trade',
    answer(url, principal) {
      const id = plainOrderId(url);
      if (id === undefined) return undefined;
      const order = service.ownOrder(principal.sub, id);
      return order === undefined ? undefined : onceDurable(service, orderJson(order));
    },
  });
  app.addPublicFastAnswer({
    route: L2_PATH,
    answer(url) {
      const query = plainBookRead(url, L2_PATH);
      // An unknown symbol throws: the full route answers it.
      if (query === undefined) return undefined;
      return onceDurable(service, JSON.stringify(service.l2(query.symbol, query.depth)));
    },
  });
  app.addPublicFastAnswer({
    route: L3_PATH,
    answer(url) {
      const query = plainBookRead(url, L3_PATH);
      if (query === undefined) return undefined;
      return onceDurable(service, JSON.stringify(service.l3(query.symbol, query.depth)));
    },
  });
}

/** The body, taken now, given once what it shows is durable (service.readsWait). */
function onceDurable(service: ExchangeService, body: string): string | Promise<string> {
  const wait = service.readsWait();
  return wait === undefined ? body : wait.then(() => body);
}
