/**
 * The application messages, FIX side, as pure functions: reading a NewOrderSingle or an
 * OrderCancelRequest into what the exchange takes (or into why not), and writing the
 * ExecutionReport, OrderCancelReject and BusinessMessageReject fields. Prices and quantities are integers in the
 * smallest unit, as in the REST API; FIX sends them as decimals, so "100" and "100.0" are read
 * and "100.5" is refused with a reason.
 */
import { BodyBytes, bodyText } from './body-bytes.ts';
import { detached, fieldsText, type FixMessage } from './codec.ts';
import type { Side } from '../core/messages.ts';
import { CXL_REJ, ORD_REJ, SESSION_REJECT, TAG } from './tags.ts';

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

/** OrdRejReason for an exchange refusal code (EX_…). */
export function ordRejReason(code: string): number {
  if (code === 'EX_UNKNOWN_SYMBOL') return ORD_REJ.UnknownSymbol;
  if (code === 'EX_MARKET_CLOSED') return ORD_REJ.ExchangeClosed;
  if (code === 'EX_INVALID_QUANTITY') return ORD_REJ.IncorrectQuantity;
  if (code === 'EX_DUPLICATE_CLIENT_ORDER_ID') return ORD_REJ.DuplicateOrder;
  if (code.startsWith('EX_RISK_') || code.startsWith('EX_INSUFFICIENT_')) return ORD_REJ.ExceedsLimit;
  return ORD_REJ.Other;
}

/** CxlRejReason for an exchange refusal code. */
export function cxlRejReason(code: string): number {
  if (code === 'EX_CANNOT_CANCEL_ALREADY_MATCHED') return CXL_REJ.TooLateToCancel;
  if (code === 'EX_ORDER_NOT_FOUND') return CXL_REJ.UnknownOrder;
  return CXL_REJ.Other;
}

export interface ReportFields {
  /** The exchange's order id; "NONE" for an order refused before it had one. */
  readonly orderId: number | string;
  readonly clOrdId: string;
  readonly origClOrdId?: string;
  readonly execId: string;
  readonly execType: string;
  readonly ordStatus: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
  readonly cumQty: number;
  readonly leavesQty: number;
  /** Price × quantity of the fills so far (the average price is this over cumQty). */
  readonly filledNotional: number;
  readonly lastQty?: number;
  readonly lastPx?: number;
  readonly ordRejReason?: number;
  /** OrdStatusReqID (790) of the OrderStatusRequest this answers. */
  readonly statusReqId?: string;
  readonly text?: string;
  readonly transactTime: string;
}

/** Bytes a report takes beyond its strings (all counted below): its tags, separators and numbers. */
const REPORT_FIXED = 400;

/**
 * The ExecutionReport's body, encoded into `out` (it is the hot path: bytes written field by
 * field, no string per field or number).
 */
export function writeExecutionReport(out: BodyBytes, r: ReportFields): BodyBytes {
  const strings =
    (typeof r.orderId === 'string' ? r.orderId.length : 0) +
    r.clOrdId.length +
    (r.origClOrdId?.length ?? 0) +
    r.execId.length +
    r.execType.length +
    r.ordStatus.length +
    r.symbol.length +
    r.transactTime.length +
    (r.statusReqId?.length ?? 0) +
    (r.text?.length ?? 0);
  out.reset(REPORT_FIXED + strings);
  if (typeof r.orderId === 'number') out.text('37=').number(r.orderId).soh();
  else out.text('37=').text(r.orderId).soh();
  out.text('11=').text(r.clOrdId).soh();
  if (r.origClOrdId !== undefined) out.text('41=').text(r.origClOrdId).soh();
  out.text('17=').text(r.execId).soh();
  out.text('150=').text(r.execType).soh();
  out.text('39=').text(r.ordStatus).soh();
  if (r.ordRejReason !== undefined) out.text('103=').number(r.ordRejReason).soh();
  out.text('55=').text(r.symbol).soh();
  out.text(r.side === 'buy' ? '54=1' : '54=2').soh();
  out.text('38=').number(r.quantity).soh();
  out.text('40=2').soh();
  out.text('44=').number(r.price).soh();
  if (r.lastQty !== undefined) {
    out.text('32=').number(r.lastQty).soh();
    out.text('31=').number(r.lastPx!).soh();
  }
  out.text('151=').number(r.leavesQty).soh();
  out.text('14=').number(r.cumQty).soh();
  out
    .text('6=')
    .number(r.cumQty === 0 ? 0 : r.filledNotional / r.cumQty)
    .soh();
  out.text('60=').text(r.transactTime).soh();
  if (r.statusReqId !== undefined) out.text('790=').text(r.statusReqId).soh();
  if (r.text !== undefined) out.text('58=').text(r.text).soh();
  return out;
}

/** The ExecutionReport's body as text (the answers read from the state, and the tests). */
export function executionReport(r: ReportFields): string {
  return bodyText(writeExecutionReport(new BodyBytes(), r));
}

export interface CancelRejectFields {
  readonly orderId: string;
  readonly clOrdId: string;
  readonly origClOrdId: string;
  readonly ordStatus: string;
  readonly reason: number;
  readonly text: string;
}

export function cancelReject(r: CancelRejectFields): string {
  return fieldsText([
    [TAG.OrderID, r.orderId],
    [TAG.ClOrdID, r.clOrdId],
    [TAG.OrigClOrdID, r.origClOrdId],
    [TAG.OrdStatus, r.ordStatus],
    [TAG.CxlRejResponseTo, '1'],
    [TAG.CxlRejReason, String(r.reason)],
    [TAG.Text, r.text],
  ]);
}

/** A BusinessMessageReject's fields: the message refused (its MsgSeqNum and MsgType), and why. */
export function businessReject(refSeq: number, refMsgType: string, reason: number, text: string): string {
  return fieldsText([
    [TAG.RefSeqNum, String(refSeq)],
    [TAG.RefMsgType, refMsgType],
    [TAG.BusinessRejectReason, String(reason)],
    [TAG.Text, text],
  ]);
}
