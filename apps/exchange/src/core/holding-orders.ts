/**
 * A holding's open orders (holding.ts), which only the self-trade scan reads: a list each placed
 * order is pushed on, oldest first. A finished order (its status no longer `new`) is dropped
 * lazily: it stays in the list until the next scan asks for the live ones, or until the finished
 * are more than 32 and outnumber the rest. On the order path that is a push per order and a
 * count per fill or cancel, where a map per holding took an insert and a delete. An order the
 * engine refused, undone while still `new`, is taken out at once (rare).
 */
import type { Resting } from './self-trade.ts';

export interface OpenOrder extends Resting {
  readonly status: string;
}

/** Finished orders kept before the count against the live ones is looked at. */
const FEW = 32;

export class HoldingOrders {
  #orders: OpenOrder[] = [];
  /** How many orders of the list are finished. */
  #finished = 0;

  add(order: OpenOrder): void {
    this.#orders.push(order);
  }

  /** One of the list has finished (its status is set already). */
  finished(): void {
    this.#finished++;
    if (this.#finished > FEW && 2 * this.#finished > this.#orders.length) this.#compact();
  }

  /** Takes out an order undone while still `new`. */
  remove(order: OpenOrder): void {
    const i = this.#orders.indexOf(order);
    if (i >= 0) this.#orders.splice(i, 1);
  }

  /** The open orders, oldest first (read at once: the next change may reuse the list). */
  live(): readonly OpenOrder[] {
    if (this.#finished > 0) this.#compact();
    return this.#orders;
  }

  #compact(): void {
    const orders = this.#orders;
    let kept = 0;
    for (let i = 0; i < orders.length; i++) {
      const order = orders[i]!;
      if (order.status === 'new') orders[kept++] = order;
    }
    orders.length = kept;
    this.#finished = 0;
  }
}
