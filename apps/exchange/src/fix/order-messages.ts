/**
 * The application messages in, FIX side, as pure functions: reading a NewOrderSingle, an
 * OrderCancelRequest or an OrderStatusRequest into what the exchange takes (or into why not).
 * Prices and quantities are integers in the smallest unit, as in the REST API; FIX sends them as
 * decimals, so "100" and "100.0" are read and "100.5" is refused with a reason. The answers are
 * written by execution-report.ts and reject-messages.ts.
 */
import { detached, type FixMessage } from './codec.ts';
import type { Side } from '../core/messages.ts';
import { ORD_REJ, SESSION_REJECT, TAG } from './tags.ts';

/** Why a message is refused at the session level (a required tag missing, a bad format). */
export interface SessionProblem {
  readonly problem: 'session';
  readonly reason: number;
  readonly tag: number;
  readonly text: string;
}

/** Why a well-formed order is refused with an ExecutionReport (ExecType 8). */
export interface OrderProblem {
  readonly problem: 'order';
  readonly reason: number;
  readonly text: string;
}

export interface NewOrderFields {
  readonly clOrdId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
}

/** An OrderStatusRequest (35=H): the order by OrderID and/or ClOrdID. */
export interface StatusRequestFields {
  readonly clOrdId: string;
  readonly orderId: number | undefined;
  readonly symbol: string;
  readonly side: string;
  /** Echoed in the answer (790), when the client sent one. */
  readonly statusReqId: string | undefined;
}

export interface CancelFields {
  readonly clOrdId: string;
  readonly origClOrdId: string;
  /** The exchange's order id (tag 37), when the client sent it. */
  readonly orderId: number | undefined;
  readonly symbol: string;
  readonly side: string;
}

const missing = (tag: number, name: string): SessionProblem => ({
  problem: 'session',
  reason: SESSION_REJECT.RequiredTagMissing,
  tag,
  text: `${name} (${tag}) missing`,
});

/** A FIX decimal that must be a whole number: NaN when not a decimal, a fraction when not whole. */
function decimal(text: string): number {
  return /^-?\d+(?:\.\d*)?$/.test(text) ? Number(text) : NaN;
}

/** Each message's required fields, named, in the order they are checked (made once, not per message). */
type Required = ReadonlyArray<readonly [name: string, tag: number]>;
const named = (names: ReadonlyArray<keyof typeof TAG>): Required => names.map((name) => [name, TAG[name]]);
const NEW_ORDER_REQUIRED = named(['ClOrdID', 'Symbol', 'Side', 'TransactTime', 'OrderQty', 'OrdType']);
const CANCEL_REQUIRED = named(['OrigClOrdID', 'ClOrdID', 'Side', 'TransactTime', 'Symbol']);
const STATUS_REQUIRED = named(['ClOrdID', 'Side', 'Symbol']);

function required(message: FixMessage, tags: Required): SessionProblem | undefined {
  for (const [name, tag] of tags) {
    const value = message.byTag.get(tag);
    if (value === undefined) return missing(tag, name);
    if (value === '')
      return {
        problem: 'session',
        reason: SESSION_REJECT.TagWithoutValue,
        tag,
        text: `${name} (${tag}) empty`,
      };
  }
  return undefined;
}

export function readNewOrder(message: FixMessage): NewOrderFields | SessionProblem | OrderProblem {
  const absent = required(message, NEW_ORDER_REQUIRED);
  if (absent !== undefined) return absent;
  const get = (tag: number) => message.byTag.get(tag)!;
  const side = get(TAG.Side);
  if (side !== '1' && side !== '2') {
    return {
      problem: 'order',
      reason: ORD_REJ.UnsupportedOrderCharacteristic,
      text: `Side ${side}: only 1 (buy) and 2 (sell)`,
    };
  }
  if (get(TAG.OrdType) !== '2') {
    return {
      problem: 'order',
      reason: ORD_REJ.UnsupportedOrderCharacteristic,
      text: `EX_ORDER_TYPE_UNSUPPORTED: OrdType ${get(TAG.OrdType)}: only limit orders (OrdType 2) are supported`,
    };
  }
  const priceText = message.byTag.get(TAG.Price);
  if (priceText === undefined) return missing(TAG.Price, 'Price');
  const price = decimal(priceText);
  const quantity = decimal(get(TAG.OrderQty));
  if (Number.isNaN(price)) return formatProblem(TAG.Price, 'Price');
  if (Number.isNaN(quantity)) return formatProblem(TAG.OrderQty, 'OrderQty');
  if (!Number.isSafeInteger(price)) {
    return {
      problem: 'order',
      reason: ORD_REJ.Other,
      text: `EX_INVALID_PRICE: Price ${priceText} is not a whole number of the smallest currency unit`,
    };
  }
  if (!Number.isSafeInteger(quantity)) {
    return {
      problem: 'order',
      reason: ORD_REJ.IncorrectQuantity,
      text: `EX_INVALID_QUANTITY: OrderQty ${get(TAG.OrderQty)} is not a whole number`,
    };
  }
  return {
    // Kept with the order for the trading day: not a view into the frame.
    clOrdId: detached(get(TAG.ClOrdID)),
    symbol: get(TAG.Symbol),
    side: side === '1' ? 'buy' : 'sell',
    price,
    quantity,
  };
}

function formatProblem(tag: number, name: string): SessionProblem {
  return {
    problem: 'session',
    reason: SESSION_REJECT.IncorrectDataFormat,
    tag,
    text: `${name} (${tag}) is not a number`,
  };
}

export function readCancel(message: FixMessage): CancelFields | SessionProblem {
  const absent = required(message, CANCEL_REQUIRED);
  if (absent !== undefined) return absent;
  const get = (tag: number) => message.byTag.get(tag)!;
  const orderIdText = message.byTag.get(TAG.OrderID);
  const orderId = orderIdText === undefined ? undefined : Number(orderIdText);
  if (orderId !== undefined && !Number.isSafeInteger(orderId)) return formatProblem(TAG.OrderID, 'OrderID');
  return {
    clOrdId: get(TAG.ClOrdID),
    origClOrdId: get(TAG.OrigClOrdID),
    orderId,
    symbol: get(TAG.Symbol),
    side: get(TAG.Side),
  };
}

export function readStatusRequest(message: FixMessage): StatusRequestFields | SessionProblem {
  const absent = required(message, STATUS_REQUIRED);
  if (absent !== undefined) return absent;
  const get = (tag: number) => message.byTag.get(tag)!;
  const orderIdText = message.byTag.get(TAG.OrderID);
  const orderId = orderIdText === undefined ? undefined : Number(orderIdText);
  if (orderId !== undefined && !Number.isSafeInteger(orderId)) return formatProblem(TAG.OrderID, 'OrderID');
  const statusReqId = message.byTag.get(TAG.OrdStatusReqID);
  return {
    clOrdId: detached(get(TAG.ClOrdID)),
    orderId,
    symbol: get(TAG.Symbol),
    side: get(TAG.Side),
    statusReqId: statusReqId === undefined ? undefined : detached(statusReqId),
  };
}
