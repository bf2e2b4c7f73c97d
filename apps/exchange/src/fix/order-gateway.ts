/**
 * FIX orders in and execution reports out, between the logged-on sessions and the exchange:
 *   - a NewOrderSingle or OrderCancelRequest goes through the same `submitOrder`/`submitCancel` as
 *     REST (every check, the sequencer, the journal); a refusal is answered at once
 *     (ExecutionReport rejected, OrderCancelReject) naming the EX_ code;
 *   - every state change comes back from the exchange's event stream once durable, so the
 *     ExecutionReports (new, each fill, canceled) follow the journal, and a REST order of the same
 *     account reports over FIX too while a session of that account is logged on.
 * A ClOrdID travels with its order into the journal, and the exchange keeps the account's
 * ClOrdIDs of the trading day (core/client-order-ids.ts), so a restart still knows them. A
 * NewOrderSingle under a ClOrdID already used that day never places a second order: a resend
 * (PossDupFlag or PossResend Y, as after a crash) is answered with the order's state (an
 * ExecutionReport with ExecType I, order status), any other is rejected as a duplicate order
 * (OrdRejReason 6). A cancel finds its order by OrigClOrdID the same way (or by OrderID, or by the
 * id of an order placed over REST), and so does an OrderStatusRequest (35=H) by ClOrdID or OrderID:
 * it is answered with the order's state (ExecType I), or, for an order the account does not have,
 * as FIX 4.4 prescribes: ExecType I with OrdStatus 8 (rejected) and OrdRejReason 5 (unknown
 * order). What is reported so far per order is tracked in memory.
 */
import { ProblemError } from '@tessera/kit';
import { fieldsText, type FixMessage } from './codec.ts';
import type { ExchangeEvent, Execution, Order, Side } from '../core/messages.ts';
import type { DurableBatch } from '../outbox.ts';
import type { ExecutionView, OrderInput, OrderView } from '../service.ts';
import {
  cancelReject,
  cxlRejReason,
  executionReport,
  ordRejReason,
  readCancel,
  readNewOrder,
  readStatusRequest,
  type ReportFields,
} from './order-messages.ts';
import { UtcTimestamps } from './utc-timestamp.ts';
import { BUSINESS_REJECT, CXL_REJ, EXEC_TYPE, MSG, ORD_REJ, ORD_STATUS, TAG } from './tags.ts';

/** What the gateway needs of the exchange (ExchangeService has it). */
export interface FixVenue {
  submitOrder(account: string, input: OrderInput): Order;
  submitCancel(account: string, orderId: number): Order;
  order(account: string, orderId: number): OrderView;
  /** The order the account placed today under a client order id (ClOrdID), if any. */
  orderByClientId(account: string, clientOrderId: string): Order | undefined;
  executions(account: string, query: { orderId: number }): { executions: readonly ExecutionView[] };
  /** `active`: whether the listener has anyone to tell now (ExchangeService.subscribe). */
  subscribe(listener: (batch: DurableBatch) => void, active?: () => boolean): () => void;
}

/** A logged-on session as the gateway sees it. */
export interface OrderSession {
  readonly account: string;
  /** Sends an application message; `body` is its fields after the header, encoded. */
  sendApp(msgType: string, body: string): void;
  reject(refSeq: number, refMsgType: string, reason: number, text: string, refTag?: number): void;
}

interface Tracked {
  readonly orderId: number;
  readonly clOrdId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
  cumQty: number;
  filledNotional: number;
  /** The ClOrdID and OrigClOrdID of a cancel request under way. */
  cancel?: { clOrdId: string; origClOrdId: string };
}

export class FixOrderGateway {
  readonly #venue: FixVenue;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Set<OrderSession>>();
  /** The orders of logged-on accounts reported so far, per account, until they close. */
  readonly #accounts = new Map<string, Map<number, Tracked>>();
  readonly #unsubscribe: () => void;
  readonly #stamps = new UtcTimestamps();
  /** Numbers the ExecIDs of what is not a journaled event (rejects, status answers). */
  #execIds = 0;

  constructor(venue: FixVenue, now: () => number) {
    this.#venue = venue;
    this.#now = now;
    // Events matter while a session is logged on or an order is tracked (its fills count on).
    this.#unsubscribe = venue.subscribe(
      (batch) => this.#onEvents(batch.events),
      () => this.#sessions.size > 0 || this.#accounts.size > 0,
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
        fieldsText([
          [TAG.RefSeqNum, String(seq)],
          [TAG.RefMsgType, msgType],
          [TAG.BusinessRejectReason, String(BUSINESS_REJECT.UnsupportedMessageType)],
          [
            TAG.Text,
            `MsgType ${msgType} is not supported: NewOrderSingle (D), OrderCancelRequest (F) and OrderStatusRequest (H) are`,
          ],
        ]),
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
      if (placed !== undefined) return this.#status(session, placed);
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
    this.#book(session.account).set(order.id, {
      orderId: order.id,
      clOrdId: read.clOrdId,
      symbol: order.symbol,
      side: order.side,
      price: order.price,
      quantity: order.quantity,
      cumQty: 0,
      filledNotional: 0,
    });
  }

  #cancel(session: OrderSession, message: FixMessage, seq: number): void {
    const read = readCancel(message);
    if ('problem' in read)
      return session.reject(seq, MSG.OrderCancelRequest, read.reason, read.text, read.tag);
    const orderId =
      read.orderId ??
      this.#venue.orderByClientId(session.account, read.origClOrdId)?.id ??
      restOrderId(read.origClOrdId);
    const refuse = (reason: number, text: string, ordStatus: string = ORD_STATUS.Rejected) =>
      session.sendApp(
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
    const tracked =
      this.#accounts.get(session.account)?.get(orderId) ?? this.#track(session.account, orderId, 0);
    if (tracked !== undefined) tracked.cancel = { clOrdId: read.clOrdId, origClOrdId: read.origClOrdId };
  }

  #statusRequest(session: OrderSession, message: FixMessage, seq: number): void {
    const read = readStatusRequest(message);
    if ('problem' in read)
      return session.reject(seq, MSG.OrderStatusRequest, read.reason, read.text, read.tag);
    const order = this.#find(session.account, read.orderId, read.clOrdId);
    if (order !== undefined) return this.#status(session, order, read.statusReqId);
    const now = this.#now();
    session.sendApp(
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
   * The answer to a resent order already placed: its state now, as an ExecutionReport with
   * ExecType I (order status); an open one is tracked from here on under its ClOrdID.
   */
  #status(session: OrderSession, order: OrderView, statusReqId?: string): void {
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
    session.sendApp(
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
    if (view.status === 'new' && this.#accounts.get(session.account)?.get(order.id) === undefined)
      this.#track(session.account, order.id, 0);
  }

  #onEvents(events: readonly ExchangeEvent[]): void {
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      switch (event.type) {
        case 'order.accepted': {
          const { account, id } = event.order;
          const tracked = this.#known(account, id, events, i);
          if (tracked !== undefined) this.#report(account, tracked, EXEC_TYPE.New, event.at);
          break;
        }
        case 'execution':
          this.#fill(event.execution, events, i);
          break;
        case 'order.canceled': {
          const tracked = this.#known(event.account, event.orderId, events, i);
          if (tracked === undefined) break;
          this.#report(event.account, tracked, EXEC_TYPE.Canceled, event.at, undefined, event.reason);
          this.#forget(event.account, tracked);
          break;
        }
        default:
          break;
      }
    }
  }

  #fill(execution: Execution, events: readonly ExchangeEvent[], at: number): void {
    const tracked = this.#known(execution.account, execution.orderId, events, at);
    if (tracked === undefined) return;
    tracked.cumQty += execution.quantity;
    tracked.filledNotional += execution.quantity * execution.price;
    this.#report(execution.account, tracked, EXEC_TYPE.Trade, execution.at, execution);
    if (tracked.cumQty === tracked.quantity) this.#forget(execution.account, tracked);
  }

  /**
   * The tracked order, or one of a logged-on account tracked from now on (an order placed over
   * REST, or before a restart): its fills in this batch from `events[at]` on are reported one by
   * one after this, so its filled quantity so far is taken without them.
   */
  #known(
    account: string,
    orderId: number,
    events: readonly ExchangeEvent[],
    at: number,
  ): Tracked | undefined {
    const tracked = this.#accounts.get(account)?.get(orderId);
    if (tracked !== undefined || !this.#sessions.has(account)) return tracked;
    let unreported = 0;
    for (let i = at; i < events.length; i++) {
      const e = events[i]!;
      if (e.type === 'execution' && e.execution.orderId === orderId) unreported += e.execution.quantity;
    }
    return this.#track(account, orderId, unreported);
  }

  #track(account: string, orderId: number, unreported: number): Tracked | undefined {
    let view: OrderView;
    try {
      view = this.#venue.order(account, orderId);
    } catch {
      return undefined;
    }
    const cumQty = view.filledQuantity - unreported;
    const tracked: Tracked = {
      orderId,
      // An order placed over REST is known by its id.
      clOrdId: view.clientOrderId ?? String(orderId),
      symbol: view.symbol,
      side: view.side,
      price: view.price,
      quantity: view.quantity,
      cumQty,
      // The fills' prices before now are not at hand: the limit price stands in for them.
      filledNotional: cumQty * view.price,
    };
    this.#book(account).set(orderId, tracked);
    return tracked;
  }

  #forget(account: string, tracked: Tracked): void {
    const book = this.#book(account);
    book.delete(tracked.orderId);
    if (book.size === 0) this.#accounts.delete(account);
  }

  #report(
    account: string,
    t: Tracked,
    execType: string,
    at: number,
    fill?: Execution,
    cancelReason?: string,
  ): void {
    const sessions = this.#sessions.get(account);
    if (sessions === undefined) return;
    const canceled = execType === EXEC_TYPE.Canceled;
    const leavesQty = canceled ? 0 : t.quantity - t.cumQty;
    const ordStatus = canceled
      ? ORD_STATUS.Canceled
      : leavesQty === 0
        ? ORD_STATUS.Filled
        : t.cumQty > 0
          ? ORD_STATUS.PartiallyFilled
          : ORD_STATUS.New;
    const cancel = canceled ? t.cancel : undefined;
    // Every field named, absent ones undefined: one object shape on the hot path, no spreads.
    const fields: ReportFields = {
      orderId: String(t.orderId),
      clOrdId: cancel !== undefined ? cancel.clOrdId : t.clOrdId,
      origClOrdId: cancel?.origClOrdId,
      execId: fill !== undefined ? `T${fill.id}` : `${execType === EXEC_TYPE.New ? 'N' : 'C'}${t.orderId}`,
      execType,
      ordStatus,
      symbol: t.symbol,
      side: t.side,
      price: t.price,
      quantity: t.quantity,
      cumQty: t.cumQty,
      leavesQty,
      filledNotional: t.filledNotional,
      lastQty: fill?.quantity,
      lastPx: fill?.price,
      ordRejReason: undefined,
      text: canceled && cancelReason !== 'request' ? `canceled: ${cancelReason}` : undefined,
      transactTime: this.#stamps.format(at),
    };
    const body = executionReport(fields);
    for (const session of sessions) session.sendApp(MSG.ExecutionReport, body);
  }

  #book(account: string): Map<number, Tracked> {
    let book = this.#accounts.get(account);
    if (book === undefined) this.#accounts.set(account, (book = new Map<number, Tracked>()));
    return book;
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
