/**
 * The FIX gateway's durable reports: every state change comes back from the exchange's event
 * stream once durable, as ExecutionReports (new, each fill, canceled) to the logged-on sessions of
 * the order's account, REST orders too. The CumQty of an order first met in a batch is the batch's
 * own (DurableBatch.filled, taken when applied): the order in memory may already hold the fills
 * of the next batch, which are reported with it. The hot path: one body written per report.
 */
import type { Execution } from '../core/messages.ts';
import type { DurableBatch } from '../outbox.ts';
import type { OrderView } from '../service.ts';
import { BodyBytes } from './body-bytes.ts';
import { writeExecutionReport, type ReportFields } from './execution-report.ts';
import type { FixVenue, OrderSession } from './gateway-ports.ts';
import { filledBefore, type OrderTracking, type TrackedOrder } from './order-tracking.ts';
import { EXEC_TYPE, MSG, ORD_STATUS } from './tags.ts';
import { UtcTimestamps } from './utc-timestamp.ts';

/** The ClOrdID and OrigClOrdID of a cancel request, for the report of the cancel. */
export interface CancelRequest {
  readonly clOrdId: string;
  readonly origClOrdId: string;
}

export class DurableReports {
  readonly #venue: FixVenue;
  /** The gateway's logged-on sessions, by account. */
  readonly #sessions: ReadonlyMap<string, ReadonlySet<OrderSession>>;
  readonly #tracking: OrderTracking;
  readonly #cancels: Map<number, CancelRequest>;
  readonly #stamps = new UtcTimestamps();
  /** Where each durable report's body is written (sessions copy it into their frames at once). */
  readonly #reportBody = new BodyBytes();

  /** `tracking` and `cancels` are the gateway's: it adds to them as orders and cancels are accepted. */
  constructor(
    venue: FixVenue,
    sessions: ReadonlyMap<string, ReadonlySet<OrderSession>>,
    tracking: OrderTracking,
    cancels: Map<number, CancelRequest>,
  ) {
    this.#venue = venue;
    this.#sessions = sessions;
    this.#tracking = tracking;
    this.#cancels = cancels;
  }

  /** Reports a durable batch's events to the sessions of the accounts they touch. */
  deliver(batch: DurableBatch): void {
    const { events } = batch;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      switch (event.type) {
        case 'order.accepted': {
          const { account, id } = event.order;
          // The event's order is a copy as of the event: the fills after it are reported after it.
          const tracked =
            this.#tracking.known(account, id) ?? this.#meet(account, id, event.order.filledQuantity);
          if (tracked !== undefined) this.#report(account, tracked, EXEC_TYPE.New, event.at);
          break;
        }
        case 'execution':
          this.#fill(event.execution, batch, i);
          break;
        case 'order.canceled': {
          const { account, orderId } = event;
          const cancel = this.#cancels.get(orderId);
          if (cancel !== undefined) this.#cancels.delete(orderId);
          // Canceled, the order is final: it fills no more.
          const tracked =
            this.#tracking.known(account, orderId) ??
            this.#meet(account, orderId, event.order.filledQuantity);
          if (tracked === undefined) break;
          this.#report(account, tracked, EXEC_TYPE.Canceled, event.at, undefined, event.reason, cancel);
          this.#tracking.forget(account, tracked);
          break;
        }
        default:
          break;
      }
    }
  }

  /** `execution` is the event `batch.events[at]`. */
  #fill(execution: Execution, batch: DurableBatch, at: number): void {
    const { account, orderId } = execution;
    const tracked =
      this.#tracking.known(account, orderId) ??
      this.#meet(account, orderId, filledBefore(orderId, batch, at));
    if (tracked === undefined) return;
    // A filled order is forgotten here; its report is built from the object still at hand.
    this.#tracking.fill(tracked, execution);
    this.#report(execution.account, tracked, EXEC_TYPE.Trade, execution.at, execution);
  }

  /**
   * An order met in a durable batch, of a logged-on account, tracked from now on (an order placed
   * over REST, or before a restart, or before the logon): `cumQty` is its filled quantity as of
   * the event, from the batch (never the order in memory: it may hold a later batch's fills).
   */
  #meet(account: string, orderId: number, cumQty: number): TrackedOrder | undefined {
    if (!this.#sessions.has(account)) return undefined;
    let view: OrderView;
    try {
      // What never changes of an order (its symbol, side, price, quantity, ClOrdID): read now.
      view = this.#venue.order(account, orderId);
    } catch {
      return undefined;
    }
    return this.#tracking.met(account, orderId, view, cumQty);
  }

  #report(
    account: string,
    t: TrackedOrder,
    execType: string,
    at: number,
    fill?: Execution,
    cancelReason?: string,
    cancel?: CancelRequest,
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
    // Every field named, absent ones undefined: one object shape on the hot path, no spreads.
    const fields: ReportFields = {
      orderId: t.orderId,
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
    const body = writeExecutionReport(this.#reportBody, fields);
    for (const session of sessions) session.sendApp(MSG.ExecutionReport, body);
  }
}
