/** The API's views of orders and executions (spec/exchange.md): no account ids, times named as the spec does. */
import type { Execution, Order, Side } from './messages.ts';

/** The order as the API shows it: no account. */
export type OrderView = Omit<Order, 'account'>;

export interface ExecutionView {
  readonly id: number;
  readonly orderId: number;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly orderType: 'limit';
  readonly quantity: number;
  /** When it happened (an addition to the spec's fields). */
  readonly timestamp: number;
}

/** Written out field by field: a rest copy walks the object generically, and this is on the order path. */
export function orderView(o: Order): OrderView {
  const view = {
    id: o.id,
    creationTime: o.creationTime,
    symbol: o.symbol,
    side: o.side,
    price: o.price,
    orderType: o.orderType,
    quantity: o.quantity,
    filledQuantity: o.filledQuantity,
    remainingQuantity: o.remainingQuantity,
    status: o.status,
  };
  return o.clientOrderId === undefined ? view : { ...view, clientOrderId: o.clientOrderId };
}

export const executionView = (e: Omit<Execution, 'counterOrderId'>): ExecutionView => ({
  id: e.id,
  orderId: e.orderId,
  symbol: e.symbol,
  side: e.side,
  price: e.price,
  orderType: e.orderType,
  quantity: e.quantity,
  timestamp: e.at,
});
