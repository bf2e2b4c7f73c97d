/**
 * What the FIX gateway has reported so far of each order of the logged-on accounts (its CumQty and
 * the notional of its fills, for AvgPx), from the order's command or from the first durable event
 * that shows it, until the order is final (filled or canceled). Memory holds only orders still
 * open, and only while their account has a session or they are tracked.
 */
import type { Execution, Side } from '../core/messages.ts';
import type { DurableBatch } from '../outbox.ts';

export interface TrackedOrder {
  readonly orderId: number;
  readonly clOrdId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
  cumQty: number;
  filledNotional: number;
}

/** What never changes of an order, as read from the exchange (OrderView has it). */
export interface OrderFacts {
  readonly clientOrderId?: string;
  readonly symbol: string;
  readonly side: Side;
  readonly price: number;
  readonly quantity: number;
}

export class OrderTracking {
  /** Per account, its tracked orders by id; an account with none has no entry. */
  readonly #accounts = new Map<string, Map<number, TrackedOrder>>();

  /** How many accounts have a tracked order (the gateway listens to events while there are). */
  get accounts(): number {
    return this.#accounts.size;
  }

  /** An order placed by a session, tracked from its command on (nothing of it reported yet). */
  placed(account: string, orderId: number, clOrdId: string, facts: OrderFacts): TrackedOrder {
    return this.#track(account, orderId, clOrdId, facts, 0);
  }

  known(account: string, orderId: number): TrackedOrder | undefined {
    return this.#accounts.get(account)?.get(orderId);
  }

  /**
   * An order first met in a durable batch (placed over REST, before a restart or before the
   * logon): `cumQty` is its filled quantity as of the event, from the batch, never the order in
   * memory (it may hold a later batch's fills). Known by its id when it has no ClOrdID.
   */
  met(account: string, orderId: number, facts: OrderFacts, cumQty: number): TrackedOrder {
    return this.#track(account, orderId, facts.clientOrderId ?? String(orderId), facts, cumQty);
  }

  /** Counts a fill; a filled order is forgotten (it changes no more). Answers the order. */
  fill(tracked: TrackedOrder, execution: Execution): TrackedOrder {
    tracked.cumQty += execution.quantity;
    tracked.filledNotional += execution.quantity * execution.price;
    if (tracked.cumQty === tracked.quantity) this.forget(execution.account, tracked);
    return tracked;
  }

  forget(account: string, tracked: TrackedOrder): void {
    const book = this.#accounts.get(account);
    if (book === undefined) return;
    book.delete(tracked.orderId);
    if (book.size === 0) this.#accounts.delete(account);
  }

  #track(account: string, orderId: number, clOrdId: string, facts: OrderFacts, cumQty: number): TrackedOrder {
    const tracked: TrackedOrder = {
      orderId,
      clOrdId,
      symbol: facts.symbol,
      side: facts.side,
      price: facts.price,
      quantity: facts.quantity,
      cumQty,
      // The prices of fills before tracking are not at hand: the limit price stands in for them.
      filledNotional: cumQty * facts.price,
    };
    let book = this.#accounts.get(account);
    if (book === undefined) this.#accounts.set(account, (book = new Map<number, TrackedOrder>()));
    book.set(orderId, tracked);
    return tracked;
  }
}

/**
 * The order's filled quantity before its execution `batch.events[at]`: as of the batch, less its
 * fills in the batch from there on (each reported after this).
 */
export function filledBefore(orderId: number, batch: DurableBatch, at: number): number {
  const { events } = batch;
  let after = 0;
  for (let i = at; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'execution' && e.execution.orderId === orderId) after += e.execution.quantity;
  }
  return batch.filled.get(orderId)! - after;
}
