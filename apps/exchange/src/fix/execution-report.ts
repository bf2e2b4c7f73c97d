/**
 * The ExecutionReport's body, FIX side: written byte by byte for the durable reports (the hot
 * path), or as text for the answers read from the state.
 */
import { BodyBytes, bodyText } from './body-bytes.ts';
import type { Side } from '../core/messages.ts';

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
