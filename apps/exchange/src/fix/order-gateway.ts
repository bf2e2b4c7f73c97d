/**
 * FIX orders in and execution reports out, between the logged-on sessions and the exchange. A
 * session is shown only durable state, in order:
 *   - a NewOrderSingle or OrderCancelRequest goes through the same `submitOrder`/`submitCancel` as
 *     REST (every check, the sequencer, the journal); a refused order is answered at once
 *     (ExecutionReport rejected) naming the EX_ code;
 *   - every state change comes back from the exchange's event stream once durable, so the
 *     ExecutionReports (new, each fill, canceled) follow the journal, REST orders' too
 *     (durable-reports.ts);
 *   - an answer read from the state (an OrderStatusRequest's, a resent order's, an
 *     OrderCancelReject) is taken at once, as a REST read is, and sent once every command it may
 *     show is durable, after the reports due before it (read-answers.ts).
 * A ClOrdID travels with its order into the journal, and the exchange keeps the account's
 * ClOrdIDs of the trading day (core/client-order-ids.ts), so a restart still knows them. A
 * NewOrderSingle under a ClOrdID already used that day never places a second order: a resend
 * (PossDupFlag or PossResend Y, as after a crash) is answered with the order's state (an
 * ExecutionReport with ExecType I, order status), any other is rejected as a duplicate order
 * (OrdRejReason 6). A cancel finds its order by OrigClOrdID the same way (or by OrderID, or by the
 * id of an order placed over REST), and so does an OrderStatusRequest (35=H) by ClOrdID or OrderID:
 * it is answered with the order's state (ExecType I), or, for an order the account does not have,
 * as FIX 4.4 prescribes: ExecType I with OrdStatus 8 (rejected) and OrdRejReason 5 (unknown
 * order). What is reported so far per order is tracked in memory (order-tracking.ts).
 */
import { ProblemError } from '@tessera/kit';
import type { FixMessage } from './codec.ts';
import type { Order, Side } from '../core/messages.ts';
import type { OrderView } from '../service.ts';
import { DurableReports, type CancelRequest } from './durable-reports.ts';
import { executionReport } from './execution-report.ts';
import type { FixVenue, OrderSession } from './gateway-ports.ts';
import { readCancel, readNewOrder, readStatusRequest } from './order-messages.ts';
import { ReadAnswers } from './read-answers.ts';
import { businessReject, cancelReject, cxlRejReason, ordRejReason } from './reject-messages.ts';
import { OrderTracking } from './order-tracking.ts';
import { UtcTimestamps } from './utc-timestamp.ts';
import { BUSINESS_REJECT, CXL_REJ, EXEC_TYPE, MSG, ORD_REJ, ORD_STATUS, TAG } from './tags.ts';

export type { FixVenue, OrderSession };

export class FixOrderGateway {
  readonly #venue: FixVenue;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Set<OrderSession>>();
  /** The orders of logged-on accounts reported so far, until they close. */
  readonly #tracking = new OrderTracking();
  /** The cancel requests accepted, by order id, until the order's cancel is reported. */
  readonly #cancels = new Map<number, CancelRequest>();
  readonly #answers: ReadAnswers;
  readonly #unsubscribe: () => void;
  readonly #stamps = new UtcTimestamps();
  /** Numbers the ExecIDs of what is not a journaled event (rejects, status answers). */
  #execIds = 0;

  constructor(venue: FixVenue, now: () => number) {
    this.#venue = venue;
    this.#now = now;
    this.#answers = new ReadAnswers(
      venue,
      (session) => this.#sessions.get(session.account)?.has(session) === true,
    );
    const reports = new DurableReports(venue, this.#sessions, this.#tracking, this.#cancels);
    // Events matter while a session is logged on or an order is tracked (its fills count on).
    this.#unsubscribe = venue.subscribe(
      (batch) => reports.deliver(batch),
      () => this.#sessions.size > 0 || this.#tracking.accounts > 0,
    );
  }

  attach(session: OrderSession): void {
    let set = this.#sessions.get(session.account);
    if (set === undefined) this.#sessions.set(session.account, (set = new Set()));
    set.add(session);
  }

  detach(session: OrderSession): void {
    const set = this.#sessions.get(session.account);
    set?.delete(session);
    if (set?.size === 0) this.#sessions.delete(session.account);
  }

  close(): void {
    this.#unsubscribe();
  }

  /** An application message the session layer passed on. */
  receive(session: OrderSession, msgType: string, message: FixMessage, seq: number): void {
    if (msgType === MSG.NewOrderSingle) this.#newOrder(session, message, seq);
    else if (msgType === MSG.OrderCancelRequest) this.#cancel(session, message, seq);
    else if (msgType === MSG.OrderStatusRequest) this.#statusRequest(session, message, seq);
    else {
      session.sendApp(
        MSG.BusinessMessageReject,
        businessReject(
          seq,
          msgType,
          BUSINESS_REJECT.UnsupportedMessageType,
          `MsgType ${msgType} is not supported: NewOrderSingle (D), OrderCancelRequest (F) and OrderStatusRequest (H) are`,
        ),
      );
    }
  }

  #newOrder(session: OrderSession, message: FixMessage, seq: number): void {
    const read = readNewOrder(message);
    if ('problem' in read) {
      if (read.problem === 'session')
        return session.reject(seq, MSG.NewOrderSingle, read.reason, read.text, read.tag);
      return this.#refuse(session, message, read.reason, read.text);
    }
    if (isResend(message)) {
      const placed = this.#venue.orderByClientId(session.account, read.clOrdId);
      if (placed !== undefined) return this.#status(session, seq, MSG.NewOrderSingle, placed);
    }
    let order: Order;
    try {
      order = this.#venue.submitOrder(session.account, {
        ...read,
        orderType: 'limit',
        clientOrderId: read.clOrdId,
      });
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return this.#refuse(session, message, ordRejReason(error.code), `${error.code}: ${error.detail}`);
    }
    // Tracked from its command on: the events that report it come after this returns.
    this.#tracking.placed(session.account, order.id, read.clOrdId, order);
  }

  #cancel(session: OrderSession, message: FixMessage, seq: number): void {
    const read = readCancel(message);
    if ('problem' in read)
      return session.reject(seq, MSG.OrderCancelRequest, read.reason, read.text, read.tag);
    const orderId =
      read.orderId ??
      this.#venue.orderByClientId(session.account, read.origClOrdId)?.id ??
      restOrderId(read.origClOrdId);
    // It may show a fill not yet durable (too late to cancel): sent as a read is.
    const refuse = (reason: number, text: string, ordStatus: string = ORD_STATUS.Rejected) =>
      this.#answers.send(
        session,
        seq,
        MSG.OrderCancelRequest,
        MSG.OrderCancelReject,
        cancelReject({
          orderId: orderId === undefined ? 'NONE' : String(orderId),
          clOrdId: read.clOrdId,
          origClOrdId: read.origClOrdId,
          ordStatus,
          reason,
          text,
        }),
      );
    if (orderId === undefined)
      return refuse(CXL_REJ.UnknownOrder, `EX_ORDER_NOT_FOUND: no open order ${read.origClOrdId}`);
    try {
      this.#venue.submitCancel(session.account, orderId);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      const status =
        error.code === 'EX_CANNOT_CANCEL_ALREADY_MATCHED' ? ORD_STATUS.Filled : ORD_STATUS.Rejected;
      return refuse(cxlRejReason(error.code), `${error.code}: ${error.detail}`, status);
    }
    // Reported when the cancel is durable (order.canceled), with the order as that batch left it.
    this.#cancels.set(orderId, { clOrdId: read.clOrdId, origClOrdId: read.origClOrdId });
  }

  #statusRequest(session: OrderSession, message: FixMessage, seq: number): void {
    const read = readStatusRequest(message);
    if ('problem' in read)
      return session.reject(seq, MSG.OrderStatusRequest, read.reason, read.text, read.tag);
    const order = this.#find(session.account, read.orderId, read.clOrdId);
    if (order !== undefined)
      return this.#status(session, seq, MSG.OrderStatusRequest, order, read.statusReqId);
    const now = this.#now();
    this.#answers.send(
      session,
      seq,
      MSG.OrderStatusRequest,
      MSG.ExecutionReport,
      executionReport({
        orderId: read.orderId === undefined ? 'NONE' : String(read.orderId),
        clOrdId: read.clOrdId,
        execId: `S0-${++this.#execIds}-${now}`,
        execType: EXEC_TYPE.OrderStatus,
        ordStatus: ORD_STATUS.Rejected,
        ordRejReason: ORD_REJ.UnknownOrder,
        symbol: read.symbol,
        side: read.side === '2' ? 'sell' : 'buy',
        price: 0,
        quantity: 0,
        cumQty: 0,
        leavesQty: 0,
        filledNotional: 0,
        statusReqId: read.statusReqId,
        text: `EX_ORDER_NOT_FOUND: no order ${read.orderId ?? read.clOrdId} of this account`,
        transactTime: this.#stamps.format(now),
      }),
    );
  }

  /** The account's order by OrderID, else by today's ClOrdID, else by a REST order's id. */
  #find(account: string, orderId: number | undefined, clOrdId: string): OrderView | undefined {
    const byId = (id: number | undefined): OrderView | undefined => {
      if (id === undefined) return undefined;
      try {
        return this.#venue.order(account, id);
      } catch (error) {
        if (error instanceof ProblemError) return undefined;
        throw error;
      }
    };
    return byId(orderId) ?? this.#venue.orderByClientId(account, clOrdId) ?? byId(restOrderId(clOrdId));
  }

  /** An ExecutionReport with ExecType rejected, to the session that sent the order. */
  #refuse(session: OrderSession, message: FixMessage, reason: number, text: string): void {
    const get = (tag: number) => message.byTag.get(tag) ?? '';
    const side: Side = get(TAG.Side) === '2' ? 'sell' : 'buy';
    session.sendApp(
      MSG.ExecutionReport,
      executionReport({
        orderId: 'NONE',
        clOrdId: get(TAG.ClOrdID),
        execId: `R${++this.#execIds}-${this.#now()}`,
        execType: EXEC_TYPE.Rejected,
        ordStatus: ORD_STATUS.Rejected,
        ordRejReason: reason,
        symbol: get(TAG.Symbol),
        side,
        price: Number(get(TAG.Price)) || 0,
        quantity: Number(get(TAG.OrderQty)) || 0,
        cumQty: 0,
        leavesQty: 0,
        filledNotional: 0,
        text,
        transactTime: this.#stamps.format(this.#now()),
      }),
    );
  }

  /**
   * The answer to a status request or to a resent order already placed (`refSeq`, `refMsgType`):
   * the order's state now, as an ExecutionReport with ExecType I (order status), sent once durable.
   */
  #status(
    session: OrderSession,
    refSeq: number,
    refMsgType: string,
    order: OrderView,
    statusReqId?: string,
  ): void {
    const view = this.#venue.order(session.account, order.id);
    let filledNotional = 0;
    for (const e of this.#venue.executions(session.account, { orderId: order.id }).executions)
      filledNotional += e.price * e.quantity;
    const cumQty = view.filledQuantity;
    const leavesQty = view.status === 'new' ? view.remainingQuantity : 0;
    const ordStatus =
      view.status === 'canceled'
        ? ORD_STATUS.Canceled
        : view.status === 'completed'
          ? ORD_STATUS.Filled
          : cumQty > 0
            ? ORD_STATUS.PartiallyFilled
            : ORD_STATUS.New;
    const now = this.#now();
    this.#answers.send(
      session,
      refSeq,
      refMsgType,
      MSG.ExecutionReport,
      executionReport({
        orderId: String(order.id),
        clOrdId: order.clientOrderId ?? String(order.id),
        execId: `S${order.id}-${++this.#execIds}-${now}`,
        execType: EXEC_TYPE.OrderStatus,
        ordStatus,
        symbol: view.symbol,
        side: view.side,
        price: view.price,
        quantity: view.quantity,
        cumQty,
        leavesQty,
        filledNotional,
        statusReqId,
        transactTime: this.#stamps.format(now),
      }),
    );
  }
}

/** A message sent again by the client: PossDupFlag (a session resend) or PossResend (its application's). */
function isResend(message: FixMessage): boolean {
  return message.byTag.get(TAG.PossDupFlag) === 'Y' || message.byTag.get(TAG.PossResend) === 'Y';
}

/** An order placed over REST is reported with its id as ClOrdID, so a cancel may name it so. */
function restOrderId(clOrdId: string): number | undefined {
  return /^[1-9]\d{0,15}$/.test(clOrdId) ? Number(clOrdId) : undefined;
}
