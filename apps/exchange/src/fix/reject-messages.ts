/**
 * The refusals an order or a cancel gets, FIX side: the OrdRejReason and CxlRejReason of an
 * exchange refusal code (EX_…), and the OrderCancelReject and BusinessMessageReject fields.
 */
import { fieldsText } from './codec.ts';
import { CXL_REJ, ORD_REJ, TAG } from './tags.ts';

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
