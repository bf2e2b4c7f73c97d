/**
 * FIX orders in and execution reports out, between the logged-on sessions and the exchange:
 *   - a NewOrderSingle or OrderCancelRequest goes through the same `submitOrder`/`submitCancel` as
 *     REST (every check, the sequencer, the journal); a refusal is answered at once
 *     (ExecutionReport rejected, OrderCancelReject) naming the EX_ code;
 *   - every state change comes back from the exchange's event stream once durable, so the
 *     ExecutionReports (new, each fill, canceled) follow the journal, and a REST order of the same
 *     account reports over FIX too while a session of that account is logged on.
 * ClOrdIDs are kept per account while the order is open (an order placed over REST is known by
 * its id). The tracking is in memory: after a restart, cancel an older order by its OrderID (37).
 */
import { ProblemError } from '@tessera/kit';
import { fieldsText, type FixMessage } from './codec.ts';
import type { ExchangeEvent, Execution, Order, Side } from '../core/messages.ts';
import type { OrderInput, OrderView } from '../service.ts';
import {
  cancelReject,
  cxlRejReason,
  executionReport,
  ordRejReason,
  readCancel,
  readNewOrder,
  type ReportFields,
} from './order-messages.ts';
import { UtcTimestamps } from './utc-timestamp.ts';
import { BUSINESS_REJECT, CXL_REJ, EXEC_TYPE, MSG, ORD_REJ, ORD_STATUS, TAG } from './tags.ts';

/** What the gateway needs of the exchange (ExchangeService has it). */
export interface FixVenue {
  submitOrder(account: string, input: OrderInput): Order;
  submitCancel(account: string, orderId: number): Order;
  order(account: string, orderId: number): OrderView;
  subscribe(listener: (events: readonly ExchangeEvent[]) => void): () => void;
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

interface AccountOrders {
  readonly byClOrdId: Map<string, number>;
  readonly orders: Map<number, Tracked>;
}

export class FixOrderGateway {
  readonly #venue: FixVenue;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Set<OrderSession>>();
  readonly #accounts = new Map<string, AccountOrders>();
  readonly #unsubscribe: () => void;
  readonly #stamps = new UtcTimestamps();
  #rejects = 0;

  constructor(venue: FixVenue, now: () => number) {
    this.#venue = venue;
    this.#now = now;
    this.#unsubscribe = venue.subscribe((events) => this.#onEvents(events));
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
    else {
      session.sendApp(
        MSG.BusinessMessageReject,
        fieldsText([
          [TAG.RefSeqNum, String(seq)],
          [TAG.RefMsgType, msgType],
          [TAG.BusinessRejectReason, String(BUSINESS_REJECT.UnsupportedMessageType)],
          [
            TAG.Text,
            `MsgType ${msgType} is not supported: NewOrderSingle (D) and OrderCancelRequest (F) are`,
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
    const book = this.#book(session.account);
    if (book.byClOrdId.has(read.clOrdId)) {
      return this.#refuse(
        session,
        message,
        ORD_REJ.DuplicateOrder,
        `ClOrdID ${read.clOrdId} is an open order`,
      );
    }
    let order: Order;
    try {
      order = this.#venue.submitOrder(session.account, { ...read, orderType: 'limit' });
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return this.#refuse(session, message, ordRejReason(error.code), `${error.code}: ${error.detail}`);
    }
    // Tracked from its command on: the events that report it come after this returns.
    book.byClOrdId.set(read.clOrdId, order.id);
    book.orders.set(order.id, {
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
    const book = this.#book(session.account);
    const orderId = read.orderId ?? book.byClOrdId.get(read.origClOrdId) ?? restOrderId(read.origClOrdId);
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
    const tracked = book.orders.get(orderId) ?? this.#track(session.account, orderId, 0);
    if (tracked !== undefined) tracked.cancel = { clOrdId: read.clOrdId, origClOrdId: read.origClOrdId };
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
        execId: `R${++this.#rejects}-${this.#now()}`,
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

  #onEvents(events: readonly ExchangeEvent[]): void {
    // Fills of this batch not yet reported, per order: an order first seen in this batch (placed
    // over REST before its account logged on) starts from its filled quantity before them.
    const pending = new Map<number, number>();
    for (const e of events) {
      if (e.type === 'execution')
        pending.set(e.execution.orderId, (pending.get(e.execution.orderId) ?? 0) + e.execution.quantity);
    }
    for (const event of events) {
      switch (event.type) {
        case 'order.accepted': {
          const { account, id } = event.order;
          const tracked = this.#known(account, id, pending);
          if (tracked !== undefined) this.#report(account, tracked, EXEC_TYPE.New, event.at);
          break;
        }
        case 'execution':
          this.#fill(event.execution, pending);
          break;
        case 'order.canceled': {
          const tracked = this.#known(event.account, event.orderId, pending);
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

  #fill(execution: Execution, pending: Map<number, number>): void {
    const tracked = this.#known(execution.account, execution.orderId, pending);
    pending.set(execution.orderId, (pending.get(execution.orderId) ?? 0) - execution.quantity);
    if (tracked === undefined) return;
    tracked.cumQty += execution.quantity;
    tracked.filledNotional += execution.quantity * execution.price;
    this.#report(execution.account, tracked, EXEC_TYPE.Trade, execution.at, execution);
    if (tracked.cumQty === tracked.quantity) this.#forget(execution.account, tracked);
  }

  /** The tracked order, or one of a logged-on account tracked from now on. */
  #known(account: string, orderId: number, pending: ReadonlyMap<number, number>): Tracked | undefined {
    const tracked = this.#accounts.get(account)?.orders.get(orderId);
    if (tracked !== undefined || !this.#sessions.has(account)) return tracked;
    return this.#track(account, orderId, pending.get(orderId) ?? 0);
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
      clOrdId: String(orderId),
      symbol: view.symbol,
      side: view.side,
      price: view.price,
      quantity: view.quantity,
      cumQty,
      // The fills' prices before now are not at hand: the limit price stands in for them.
      filledNotional: cumQty * view.price,
    };
    this.#book(account).orders.set(orderId, tracked);
    return tracked;
  }

  #forget(account: string, tracked: Tracked): void {
    const book = this.#book(account);
    book.orders.delete(tracked.orderId);
    if (book.byClOrdId.get(tracked.clOrdId) === tracked.orderId) book.byClOrdId.delete(tracked.clOrdId);
    if (book.orders.size === 0) this.#accounts.delete(account);
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
    const byRequest = canceled && t.cancel !== undefined;
    const fields: ReportFields = {
      orderId: String(t.orderId),
      clOrdId: byRequest ? t.cancel!.clOrdId : t.clOrdId,
      ...(byRequest ? { origClOrdId: t.cancel!.origClOrdId } : {}),
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
      ...(fill !== undefined ? { lastQty: fill.quantity, lastPx: fill.price } : {}),
      ...(canceled && cancelReason !== 'request' ? { text: `canceled: ${cancelReason}` } : {}),
      transactTime: this.#stamps.format(at),
    };
    const body = executionReport(fields);
    for (const session of sessions) session.sendApp(MSG.ExecutionReport, body);
  }

  #book(account: string): AccountOrders {
    let book = this.#accounts.get(account);
    if (book === undefined) this.#accounts.set(account, (book = { byClOrdId: new Map(), orders: new Map() }));
    return book;
  }
}

/** An order placed over REST is reported with its id as ClOrdID, so a cancel may name it so. */
function restOrderId(clOrdId: string): number | undefined {
  return /^[1-9]\d{0,15}$/.test(clOrdId) ? Number(clOrdId) : undefined;
}
