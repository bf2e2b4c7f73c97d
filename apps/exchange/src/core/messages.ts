/**
 * What goes into the exchange's state machine (commands, each stamped with a sequence number by
 * the sequencer and journaled before it is applied) and what comes out (events). All plain,
 * versioned, JSON-serialisable (DESIGN.md, "Events between roles"); time comes in as data (`at`,
 * milliseconds since the epoch), so a replay of the journal reproduces every decision.
 */
import type { OrderStatus, Side } from './output.ts';

export type { OrderStatus, Side };

export interface NewOrder {
  readonly v: 1;
  readonly type: 'order.new';
  readonly at: number;
  readonly account: string;
  /** Assigned by the order manager before sequencing, so a replay reproduces it. */
  readonly orderId: number;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
  /**
   * The client's own id of the order (FIX ClOrdID), unique per account and trading day: kept in
   * the journal with the order so that a restart still knows it (client-order-ids.ts).
   */
  readonly clientOrderId?: string;
}

export interface CancelOrder {
  readonly v: 1;
  readonly type: 'order.cancel';
  readonly at: number;
  readonly account: string;
  readonly orderId: number;
}

/** Cancel all of an account's open orders (of one symbol, or all). */
export interface CancelAll {
  readonly v: 1;
  readonly type: 'orders.cancel-all';
  readonly at: number;
  readonly account: string;
  readonly symbol?: string;
}

export interface Deposit {
  readonly v: 1;
  readonly type: 'account.deposit';
  readonly at: number;
  readonly account: string;
  readonly cash: number;
  readonly shares: Readonly<Record<string, number>>;
}

/** The per-account kill switch: on cancels every open order and refuses new ones until off. */
export interface KillSwitch {
  readonly v: 1;
  readonly type: 'account.kill-switch';
  readonly at: number;
  readonly account: string;
  readonly on: boolean;
}

export type Command = NewOrder | CancelOrder | CancelAll | Deposit | KillSwitch;

/** An order as the API shows it (spec/exchange.md, "Order"), plus the owning account. */
export interface Order {
  readonly id: number;
  readonly account: string;
  readonly creationTime: number;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly orderType: 'limit';
  readonly quantity: number;
  filledQuantity: number;
  remainingQuantity: number;
  status: OrderStatus;
  /** The client's id of the order (FIX ClOrdID), when it gave one (not in the REST API's shape). */
  readonly clientOrderId?: string;
}

/** An execution (spec/exchange.md, "Execution"), plus what reports and candles need. */
export interface Execution {
  readonly id: number;
  readonly orderId: number;
  readonly account: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly orderType: 'limit';
  readonly quantity: number;
  readonly counterOrderId: number;
  readonly at: number;
  /** The sequence number of the command that caused it. */
  readonly seq: number;
}

export type CancelReason = 'request' | 'self-trade' | 'kill-switch' | 'cancel-all';

interface EventBase {
  readonly v: 1;
  readonly seq: number;
  readonly at: number;
}

export type ExchangeEvent = EventBase &
  (
    | { readonly type: 'order.accepted'; readonly order: Order }
    | { readonly type: 'execution'; readonly execution: Execution }
    | {
        readonly type: 'order.completed';
        readonly orderId: number;
        readonly account: string;
        readonly symbol: string;
        /** The finished order, final: it leaves the state, and the journal stores it. */
        readonly order: Order;
      }
    | {
        readonly type: 'order.canceled';
        readonly orderId: number;
        /** The finished order, final: it leaves the state, and the journal stores it. */
        readonly order: Order;
        readonly account: string;
        readonly symbol: string;
        readonly canceledQuantity: number;
        readonly reason: CancelReason;
      }
    | {
        readonly type: 'book.level';
        readonly symbol: string;
        readonly side: Side;
        readonly price: number;
        readonly volume: number;
        readonly orders: number;
      }
    | { readonly type: 'account.updated'; readonly account: string }
    | { readonly type: 'account.kill-switch'; readonly account: string; readonly on: boolean }
  );
