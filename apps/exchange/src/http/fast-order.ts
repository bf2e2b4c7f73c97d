/**
 * The request every trading client makes all the time, a limit order, answered before fastify
 * when it is plain (see the kit's fast-routes.ts): a body the route's schema (orderBodySchema)
 * would accept as it is, from a token already verified with the `trade` scope. It goes through
 * the same `placeOrder` (every check, the sequencer, the journal) and is answered once durable,
 * with the same body, status and problems as the route; anything else — a market order, a field
 * out of range, an extra field — takes the full route, which answers it.
 */
import type { FastifyInstance } from 'fastify';
import type { ExchangeService, OrderInput, OrderView } from '../service.ts';
import { plainOrderOfBytes } from './plain-order-bytes.ts';
import { orderBodySchema } from './schemas/orders.ts';

const ORDER_URL = '/v1/order';
/** A plain order body is well under this. */
const MAX_PLAIN_ORDER_BYTES = 512;
const symbolPattern = new RegExp(orderBodySchema.properties.symbol.pattern);

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** The order in the body, when the schema would take it as it is; else undefined. */
export function plainOrder(body: unknown): OrderInput | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  let fields = 0;
  for (const key in body) {
    if (key !== 'symbol' && key !== 'side' && key !== 'price' && key !== 'orderType' && key !== 'quantity')
      return undefined;
    fields++;
  }
  const { symbol, side, price, orderType, quantity } = body as Record<string, unknown>;
  if (fields !== 5 || typeof symbol !== 'string' || !symbolPattern.test(symbol)) return undefined;
  if ((side !== 'buy' && side !== 'sell') || orderType !== 'limit') return undefined;
  if (!isCount(price) || !isCount(quantity)) return undefined;
  // Exactly the five fields, each checked: the parsed body itself is the order (no copy).
  return body as OrderInput;
}

/** The order as the route's response schema (orderSchema) writes it: its fields, in its order. */
export function orderJson(o: OrderView): string {
  return (
    `{"id":${o.id},"creationTime":${o.creationTime},"symbol":${quoted(o.symbol)},` +
    `"side":"${o.side}","price":${o.price},"orderType":"${o.orderType}","quantity":${o.quantity},` +
    `"filledQuantity":${o.filledQuantity},"remainingQuantity":${o.remainingQuantity},"status":"${o.status}"}`
  );
}

/**
 * The text as JSON.stringify writes it. A listed symbol is plain ASCII with nothing to escape
 * (config.ts's pattern), so it is quoted as it is: JSON.stringify cost more than the check.
 */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return JSON.stringify(text);
  }
  return `"${text}"`;
}

export function addFastOrder(app: FastifyInstance, service: ExchangeService): void {
  app.addFastWrite({
    route: ORDER_URL,
    scope: 'trade',
    maxBodyBytes: MAX_PLAIN_ORDER_BYTES,
    // The usual spelling of a plain order, read from its bytes; any other goes through JSON.parse.
    writeBytes(body, principal) {
      const input = plainOrderOfBytes(body);
      if (input === undefined) return undefined;
      return answerOrder(service, principal.sub, input);
    },
    write(body, principal) {
      const input = plainOrder(body);
      if (input === undefined) return undefined;
      return answerOrder(service, principal.sub, input);
    },
  });
}

/**
 * placeOrder's steps, with the answer written straight from the order (no view copied) the
 * moment its command is applied, and sent once its batch is durable: by then a later batch may
 * have filled the order in memory, and that fill is not durable yet (a crash loses it), so the
 * answer must not show it. Later reports (the feed, the order's reads) carry what follows.
 */
export function answerOrder(
  service: ExchangeService,
  account: string,
  input: OrderInput,
): Promise<{ body: string }> {
  const body = orderJson(service.submitOrder(account, input));
  return service.durable().then(() => ({ body }));
}
