import { defineErrors, type ProblemError } from '@tessera/kit';
import { RESULT, type ResultCode } from './core/codes.ts';

/**
 * Every error the exchange answers with; ERRORS.md documents them (test/errors.test.ts keeps both
 * in step). `number` places a code in its layer's range, so a log line or a FIX reject text can
 * carry a short number that says where the order was refused:
 *   1000–1999 gateway (the request itself), 2000–2999 orders (the order manager's state),
 *   3000–3999 risk, 4000–4999 wallet, 5000–5999 matching (the engine's own results).
 */
export const LAYER_RANGES = {
  gateway: [1000, 1999],
  orders: [2000, 2999],
  risk: [3000, 3999],
  wallet: [4000, 4999],
  matching: [5000, 5999],
} as const;
export type Layer = keyof typeof LAYER_RANGES;

export const exchangeErrors = defineErrors({
  EX_UNKNOWN_SYMBOL: { status: 400, title: 'Unknown symbol', number: 1001, layer: 'gateway' },
  EX_INVALID_PRICE: { status: 400, title: 'Invalid price', number: 1002, layer: 'gateway' },
  EX_INVALID_QUANTITY: { status: 400, title: 'Invalid quantity', number: 1003, layer: 'gateway' },
  EX_ORDER_TYPE_UNSUPPORTED: { status: 400, title: 'Only limit orders', number: 1004, layer: 'gateway' },
  EX_INVALID_DEPOSIT: { status: 400, title: 'Invalid deposit', number: 1005, layer: 'gateway' },
  EX_WS_BAD_MESSAGE: { status: 400, title: 'Bad WebSocket message', number: 1006, layer: 'gateway' },
  EX_ORDER_NOT_FOUND: { status: 404, title: 'Order not found', number: 2001, layer: 'orders' },
  EX_KILL_SWITCH: { status: 403, title: 'Account suspended', number: 2002, layer: 'orders' },
  EX_JOURNAL_FAILED: { status: 503, title: 'Journal unavailable', number: 2003, layer: 'orders' },
  EX_DUPLICATE_CLIENT_ORDER_ID: {
    status: 409,
    title: 'Duplicate client order id',
    number: 2004,
    layer: 'orders',
  },
  EX_RISK_DAILY_CAP: { status: 422, title: 'Daily cap reached', number: 3001, layer: 'risk' },
  EX_RISK_MAX_ORDER_SIZE: { status: 422, title: 'Order too large', number: 3002, layer: 'risk' },
  EX_RISK_MAX_NOTIONAL: { status: 422, title: 'Notional too large', number: 3003, layer: 'risk' },
  EX_MARKET_CLOSED: { status: 409, title: 'Market closed', number: 3004, layer: 'risk' },
  EX_SELF_TRADE: { status: 409, title: 'Self-trade prevented', number: 3005, layer: 'risk' },
  EX_INSUFFICIENT_FUNDS: { status: 422, title: 'Insufficient funds', number: 4001, layer: 'wallet' },
  EX_INSUFFICIENT_SHARES: { status: 422, title: 'Insufficient shares', number: 4002, layer: 'wallet' },
  EX_BALANCE_OVERFLOW: { status: 422, title: 'Balance too large', number: 4003, layer: 'wallet' },
  EX_OUT_OF_ORDER: { status: 503, title: 'Out of order', number: 5001, layer: 'matching' },
  EX_INVALID_ORDER: { status: 400, title: 'Invalid order', number: 5002, layer: 'matching' },
  EX_INVALID_MSG_TYPE: { status: 400, title: 'Invalid message type', number: 5003, layer: 'matching' },
  EX_CANNOT_CANCEL_ALREADY_MATCHED: {
    status: 409,
    title: 'Cannot cancel: already matched',
    number: 5004,
    layer: 'matching',
  },
});

export type ExchangeErrorCode = Exclude<keyof typeof exchangeErrors, 'table'>;

/** The engine's reject results (spec/exchange.md, "Errors") and the code each one answers with. */
export const ENGINE_RESULT_ERRORS = {
  [RESULT.OUT_OF_ORDER]: 'EX_OUT_OF_ORDER',
  [RESULT.INVALID_ORDER]: 'EX_INVALID_ORDER',
  [RESULT.INVALID_MSG_TYPE]: 'EX_INVALID_MSG_TYPE',
  [RESULT.CANNOT_CANCEL_ALREADY_MATCHED]: 'EX_CANNOT_CANCEL_ALREADY_MATCHED',
} as const satisfies Partial<Record<ResultCode, ExchangeErrorCode>>;

/** Builds the problem for a refusal; the number and the engine's result name travel as extras. */
export function exchangeError(
  code: ExchangeErrorCode,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemError {
  return exchangeErrors[code](detail, { number: exchangeErrors.table[code].number, ...extra });
}

/** The problem for an engine reject code (with the spec's result name, e.g. `result: "OUT_OF_ORDER"`). */
export function engineResultError(
  code: keyof typeof ENGINE_RESULT_ERRORS,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemError {
  const exCode = ENGINE_RESULT_ERRORS[code];
  return exchangeError(exCode, detail, { result: exCode.slice(3), ...extra });
}
