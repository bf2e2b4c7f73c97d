/**
 * An account's open orders, or a holding's (holding.ts): a list each placed order is pushed on,
 * oldest first. A finished order (its status no longer `new`) is dropped lazily: it stays in the
 * list until a read asks for the live ones (the oldest is found by stepping past finished ones at
 * the front, for good), or until the finished are more than 32 and outnumber the rest. On the
 * order path that is a push per order and a count per fill or cancel, where a map took an insert
 * and a delete. An order the engine refused, undone while still `new`, is taken out at once (rare).
 */
import type { Resting } from './self-trade.ts';

export interface OpenOrder extends Resting {
  readonly status: string;
}

/** Finished orders kept before the count against the live ones is looked at. */
const FEW = 32;

export class OpenOrderList<T extends OpenOrder = OpenOrder> {
  #orders: T[] = [];
  /** Where the live orders start: those before it are finished (and no longer counted). */
  #head = 0;
  /** How many orders from `#head` on are finished. */
  #finished = 0;

  add(order: T): void {
    this.#orders.push(order);
  }

  /** One of the list has finished (its status is set already). */
  finished(): void {
    this.#finished++;
    if (this.#finished > FEW && 2 * this.#finished > this.#orders.length - this.#head) this.#compact();
  }

  /** Takes out an order undone while still `new`. */
  remove(order: T): void {
    const i = this.#orders.indexOf(order, this.#head);
    if (i >= 0) this.#orders.splice(i, 1);
  }

  /** The oldest open order, if any. */
  first(): T | undefined {
    const orders = this.#orders;
    while (this.#head < orders.length && orders[this.#head]!.status !== 'new') {
      this.#head++;
      this.#finished--;
    }
    if (this.#head > FEW && 2 * this.#head > orders.length) this.#compact();
    return orders[this.#head];
  }

  /** The open orders, oldest first (read at once: the next change may reuse the list). */
  live(): readonly T[] {
    if (this.#finished > 0 || this.#head > 0) this.#compact();
    return this.#orders;
  }

  #compact(): void {
    const orders = this.#orders;
    let kept = 0;
    for (let i = this.#head; i < orders.length; i++) {
      const order = orders[i]!;
      if (order.status === 'new') orders[kept++] = order;
    }
    orders.length = kept;
    this.#head = 0;
    this.#finished = 0;
  }
}
