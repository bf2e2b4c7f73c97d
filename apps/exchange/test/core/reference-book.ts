import { SIDE_BUY, type SideCode } from '../../src/core/codes.ts';
import type { Emitter } from '../../src/core/emitter.ts';
import type { OrderBook } from '../../src/core/order-book.ts';
import type { SymbolSpec } from '../../src/core/symbol-spec.ts';

interface Resting {
  id: number;
  side: SideCode;
  price: number;
  remaining: number;
  filled: number;
  arrival: number;
}

/**
 * The obviously-correct reference: one array of resting orders, searched and sorted on every
 * question. Slow on purpose; written from the spec's rules alone.
 */
export class ReferenceOrderBook implements OrderBook {
  readonly spec: SymbolSpec;
  #orders: Resting[] = [];
  #arrivals = 0;

  constructor(spec: SymbolSpec) {
    this.spec = spec;
  }

  get size(): number {
    return this.#orders.length;
  }

  has(orderId: number): boolean {
    return this.#orders.some((o) => o.id === orderId);
  }

  /** One side, best price first, then first come first. */
  #side(side: SideCode): Resting[] {
    return this.#orders
      .filter((o) => o.side === side)
      .sort((a, b) => (side === SIDE_BUY ? b.price - a.price : a.price - b.price) || a.arrival - b.arrival);
  }

  bestBid(): number {
    return this.#side(0)[0]?.price ?? Number.NaN;
  }

  bestAsk(): number {
    return this.#side(1)[0]?.price ?? Number.NaN;
  }

  volumeAt(side: SideCode, price: number): number {
    return this.#side(side)
      .filter((o) => o.price === price)
      .reduce((sum, o) => sum + o.remaining, 0);
  }

  #count(side: SideCode, price: number): number {
    return this.#orders.filter((o) => o.side === side && o.price === price).length;
  }

  placeLimit(orderId: number, side: SideCode, price: number, quantity: number, emit: Emitter): void {
    emit.accepted(orderId, side, price, quantity);
    let remaining = quantity;
    const other = (1 - side) as SideCode;
    for (;;) {
      const best = this.#side(other)[0];
      const crosses = best !== undefined && (side === SIDE_BUY ? best.price <= price : best.price >= price);
      if (remaining === 0 || !crosses) break;
      const fill = Math.min(remaining, best.remaining);
      if (side === SIDE_BUY) emit.match(orderId, best.id, best.price, fill);
      else emit.match(best.id, orderId, best.price, fill);
      remaining -= fill;
      best.remaining -= fill;
      best.filled += fill;
      if (best.remaining === 0) {
        this.#orders = this.#orders.filter((o) => o !== best);
        emit.completed(best.id);
      }
      emit.level(other, best.price, this.volumeAt(other, best.price), this.#count(other, best.price));
    }
    if (remaining === 0) {
      emit.completed(orderId);
      return;
    }
    this.restore(orderId, side, price, remaining, quantity - remaining);
    emit.level(side, price, this.volumeAt(side, price), this.#count(side, price));
  }

  cancel(orderId: number, emit: Emitter): boolean {
    const order = this.#orders.find((o) => o.id === orderId);
    if (order === undefined) return false;
    this.#orders = this.#orders.filter((o) => o !== order);
    emit.canceled(orderId, order.remaining);
    emit.level(
      order.side,
      order.price,
      this.volumeAt(order.side, order.price),
      this.#count(order.side, order.price),
    );
    return true;
  }

  forEachLevel(
    side: SideCode,
    visit: (price: number, volume: number, orders: number) => boolean | void,
  ): void {
    const prices = [...new Set(this.#side(side).map((o) => o.price))];
    for (const price of prices)
      if (visit(price, this.volumeAt(side, price), this.#count(side, price)) === false) return;
  }

  forEachOrderAt(
    side: SideCode,
    price: number,
    visit: (orderId: number, remaining: number, filled: number) => void,
  ): void {
    for (const o of this.#side(side)) if (o.price === price) visit(o.id, o.remaining, o.filled);
  }

  forEachOrder(
    visit: (orderId: number, side: SideCode, price: number, remaining: number, filled: number) => void,
  ): void {
    for (const side of [0, 1] as const) {
      for (const o of this.#side(side)) visit(o.id, o.side, o.price, o.remaining, o.filled);
    }
  }

  restore(orderId: number, side: SideCode, price: number, remaining: number, filled: number): void {
    this.#orders.push({ id: orderId, side, price, remaining, filled, arrival: this.#arrivals++ });
  }
}
