/**
 * The trade report (spec/exchange.md, "Reporting flow"): one row per execution with the report
 * fields (client id, price, quantity, order type, executed quantity, remaining quantity), for one
 * account and one trading day. Pure: it reads the stored executions and the orders the journal rebuilt.
 */
import type { Execution, Order, Side } from './messages.ts';

export interface TradeReportRow {
  readonly timestamp: number;
  readonly executionId: number;
  readonly orderId: number;
  readonly clientId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly orderType: 'limit';
  /** The order's limit price and quantity. */
  readonly limitPrice: number;
  readonly quantity: number;
  /** The trade price and the quantity of this execution. */
  readonly price: number;
  readonly executedQuantity: number;
  /** The order's quantity left after this execution. */
  readonly remainingQuantity: number;
}

export const TRADE_REPORT_COLUMNS = [
  'timestamp',
  'executionId',
  'orderId',
  'clientId',
  'symbol',
  'side',
  'orderType',
  'limitPrice',
  'quantity',
  'price',
  'executedQuantity',
  'remainingQuantity',
] as const satisfies ReadonlyArray<keyof TradeReportRow>;

/**
 * `executions`: one account's, in the order they happened. `dayOf` names the trading day of a
 * time (the session's time zone decides where a day ends).
 */
export function tradeReport(
  executions: ReadonlyArray<Omit<Execution, 'counterOrderId'>>,
  orderOf: (orderId: number) => Order,
  day: string,
  dayOf: (at: number) => string,
): TradeReportRow[] {
  // The remaining quantity after each fill counts every earlier fill of the order, even on an earlier day.
  const filled = new Map<number, number>();
  const rows: TradeReportRow[] = [];
  for (const e of executions) {
    const order = orderOf(e.orderId);
    const done = (filled.get(e.orderId) ?? 0) + e.quantity;
    filled.set(e.orderId, done);
    if (dayOf(e.at) !== day) continue;
    rows.push({
      timestamp: e.at,
      executionId: e.id,
      orderId: e.orderId,
      clientId: e.account,
      symbol: e.symbol,
      side: e.side,
      orderType: e.orderType,
      limitPrice: order.price,
      quantity: order.quantity,
      price: e.price,
      executedQuantity: e.quantity,
      remainingQuantity: order.quantity - done,
    });
  }
  return rows;
}
