/**
 * The gateway's checks of a new order, before any state is looked at: a known symbol, a limit
 * order, a price on the symbol's tick grid inside its band, a positive whole number of lots.
 * The engine checks the same (INVALID_ORDER); doing it here first answers with a code that names
 * the field, and keeps a bad order out of the journal.
 */
import type { ExchangeErrorCode } from '../errors.ts';
import type { Side } from './messages.ts';
import { validPrice, type SymbolSpec } from './symbol-spec.ts';

/** A refusal, as the pure cores give it; the pipeline turns it into the coded problem. */
export interface Refusal {
  readonly code: ExchangeErrorCode;
  readonly detail: string;
  readonly extra?: Record<string, unknown>;
}

/** A new order as the client gives it (the account is the caller's, given beside it). */
export interface OrderRequest {
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
  /** Only `limit` is supported; anything else is refused. */
  readonly orderType: string;
  /** The client's id of the order (FIX ClOrdID), refused when the account used it today. */
  readonly clientOrderId?: string;
}

export function checkOrderShape(spec: SymbolSpec | undefined, request: OrderRequest): Refusal | undefined {
  const { symbol, price, quantity, orderType } = request;
  if (orderType !== 'limit') {
    return {
      code: 'EX_ORDER_TYPE_UNSUPPORTED',
      detail: `only limit orders are supported (got orderType "${orderType}")`,
    };
  }
  if (spec === undefined) return { code: 'EX_UNKNOWN_SYMBOL', detail: `no symbol ${symbol} is traded here` };
  if (request.side !== 'buy' && request.side !== 'sell') {
    return { code: 'EX_INVALID_ORDER', detail: 'side is buy or sell' };
  }
  if (!validPrice(spec, price)) {
    return {
      code: 'EX_INVALID_PRICE',
      detail: `${symbol} prices are integers from ${spec.minPrice} to ${spec.maxPrice} in steps of ${spec.tickSize}`,
      extra: { tickSize: spec.tickSize, minPrice: spec.minPrice, maxPrice: spec.maxPrice },
    };
  }
  // Above the maximum is risk's answer (EX_RISK_MAX_ORDER_SIZE), not a malformed quantity.
  if (!Number.isSafeInteger(quantity) || quantity <= 0 || quantity % spec.lotSize !== 0) {
    return {
      code: 'EX_INVALID_QUANTITY',
      detail: `${symbol} quantities are positive multiples of ${spec.lotSize}`,
      extra: { lotSize: spec.lotSize },
    };
  }
  return undefined;
}
