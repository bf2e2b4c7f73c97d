import type { InputEvent } from '../../src/core/engine.ts';
import type { EngineEvent, OrderStatus, Side } from '../../src/core/output.ts';
import type { SymbolSpec } from '../../src/core/symbol-spec.ts';

/** An event without the fields every event has (one member of the union at a time). */
type Distribute<T> = T extends unknown ? Omit<T, 'v' | 'symbol' | 'seq' | 'position'> : never;
type EventFields = Distribute<EngineEvent>;

interface Resting {
  readonly id: number;
  readonly side: Side;
  readonly price: number;
  remaining: number;
  filled: number;
}

type Result =
  | 'ACCEPTED'
  | 'MATCH_SUCCESS'
  | 'CANCEL_SUCCESS'
  | 'OUT_OF_ORDER'
  | 'INVALID_ORDER'
  | 'INVALID_MSG_TYPE'
  | 'CANNOT_CANCEL_ALREADY_MATCHED';

/**
 * The whole engine written again from spec/exchange.md and issue #3 alone, as plainly as
 * possible, for the model-based property test: sequencing, validation, matching, statuses and
 * the JSON events. It shares only types with the engine (no codes, emitter or validation), so a
 * mistake in any of those shows up as a disagreement.
 *
 * The book is one array of resting orders in arrival order; "best" is found by scanning it.
 */
export class ReferenceModel {
  readonly spec: SymbolSpec;
  /** Every order the model has accepted and what became of it. */
  readonly statuses = new Map<number, OrderStatus>();
  resting: Resting[] = [];
  expectedSeq = 1;
  #position = 1;
  #executionId = 1;
  #out: EngineEvent[] = [];
  #seq = 0;

  constructor(spec: SymbolSpec) {
    this.spec = spec;
  }

  /** Applies one input event: its result and the events it produced. */
  apply(event: InputEvent): { result: Result; events: EngineEvent[] } {
    this.#out = [];
    this.#seq = event.seq;
    const result = this.#apply(event);
    return { result, events: this.#out };
  }

  #apply(event: InputEvent): Result {
    const id = Number.isSafeInteger(event.orderId) && event.orderId! >= 0 ? event.orderId : undefined;
    if (event.seq !== this.expectedSeq) {
      this.#emit({ type: 'rejected', result: 'OUT_OF_ORDER', orderId: id, expectedSeq: this.expectedSeq });
      return 'OUT_OF_ORDER';
    }
    this.expectedSeq += 1;
    if (event.type === 'NEW') return this.#new(event, id);
    if (event.type === 'CANCEL') return this.#cancel(event, id);
    return this.#reject('INVALID_MSG_TYPE', id);
  }

  #new(event: InputEvent, id: number | undefined): Result {
    const { spec } = this;
    const { price, quantity, side } = event;
    const goodPrice =
      Number.isSafeInteger(price) &&
      price! > 0 &&
      price! >= spec.minPrice &&
      price! <= spec.maxPrice &&
      price! % spec.tickSize === 0;
    const goodQuantity =
      Number.isSafeInteger(quantity) &&
      quantity! > 0 &&
      quantity! <= spec.maxQuantity &&
      quantity! % spec.lotSize === 0;
    if (
      event.symbol !== spec.symbol ||
      id === undefined ||
      (side !== 'buy' && side !== 'sell') ||
      !goodPrice ||
      !goodQuantity ||
      this.resting.some((o) => o.id === id)
    ) {
      return this.#reject('INVALID_ORDER', id);
    }
    this.statuses.set(id, 'new');
    this.#emit({
      type: 'order.accepted',
      status: 'new',
      orderId: id,
      side,
      price: price!,
      quantity: quantity!,
    });

    const order: Resting = { id, side, price: price!, remaining: quantity!, filled: 0 };
    let matched = false;
    for (;;) {
      const best = this.#best(side === 'buy' ? 'sell' : 'buy');
      if (order.remaining === 0 || best === undefined) break;
      if (side === 'buy' ? best.price > order.price : best.price < order.price) break;
      const fill = Math.min(order.remaining, best.remaining);
      const [buyer, seller] = side === 'buy' ? [order, best] : [best, order];
      // Trade at the resting order's price; the buyer's execution first, then the seller's.
      this.#execution(buyer, seller, best.price, fill);
      this.#execution(seller, buyer, best.price, fill);
      matched = true;
      order.remaining -= fill;
      order.filled += fill;
      best.remaining -= fill;
      best.filled += fill;
      if (best.remaining === 0) {
        this.resting = this.resting.filter((o) => o !== best);
        this.#complete(best.id);
      }
      this.#level(best.side, best.price);
    }
    if (order.remaining === 0) this.#complete(id);
    else {
      this.resting.push(order);
      this.#level(side, order.price);
    }
    return matched ? 'MATCH_SUCCESS' : 'ACCEPTED';
  }

  #cancel(event: InputEvent, id: number | undefined): Result {
    if ((event.symbol !== undefined && event.symbol !== this.spec.symbol) || id === undefined) {
      return this.#reject('INVALID_ORDER', id);
    }
    const order = this.resting.find((o) => o.id === id);
    if (order === undefined) return this.#reject('CANNOT_CANCEL_ALREADY_MATCHED', id);
    this.resting = this.resting.filter((o) => o !== order);
    this.statuses.set(id, 'canceled');
    this.#emit({
      type: 'order.canceled',
      status: 'canceled',
      result: 'CANCEL_SUCCESS',
      orderId: id,
      canceledQuantity: order.remaining,
    });
    this.#level(order.side, order.price);
    return 'CANCEL_SUCCESS';
  }

  /** The best order of a side: best price, then earliest arrival (the array is in arrival order). */
  #best(side: Side): Resting | undefined {
    let best: Resting | undefined;
    for (const o of this.resting) {
      if (o.side !== side) continue;
      if (best === undefined || (side === 'buy' ? o.price > best.price : o.price < best.price)) best = o;
    }
    return best;
  }

  /** A side's levels, best first: [price, volume, orders]. */
  levels(side: Side): Array<[number, number, number]> {
    const prices = [...new Set(this.resting.filter((o) => o.side === side).map((o) => o.price))];
    prices.sort((a, b) => (side === 'buy' ? b - a : a - b));
    return prices.map((price) => {
      const at = this.resting.filter((o) => o.side === side && o.price === price);
      return [price, at.reduce((sum, o) => sum + o.remaining, 0), at.length];
    });
  }

  /** Resting orders as the engine lists them: bids then asks, best level first, arrival order. */
  orders(): Array<[number, Side, number, number, number]> {
    const list: Array<[number, Side, number, number, number]> = [];
    for (const side of ['buy', 'sell'] as const) {
      for (const [price] of this.levels(side)) {
        for (const o of this.resting) {
          if (o.side === side && o.price === price) list.push([o.id, side, price, o.remaining, o.filled]);
        }
      }
    }
    return list;
  }

  #execution(own: Resting, counter: Resting, price: number, quantity: number): void {
    this.#emit({
      type: 'execution',
      result: 'MATCH_SUCCESS',
      id: this.#executionId++,
      orderId: own.id,
      side: own.side,
      price,
      quantity,
      counterOrderId: counter.id,
    });
  }

  #complete(id: number): void {
    this.statuses.set(id, 'completed');
    this.#emit({ type: 'order.completed', status: 'completed', orderId: id });
  }

  #level(side: Side, price: number): void {
    const level = this.levels(side).find(([p]) => p === price);
    this.#emit({ type: 'book.level', side, price, volume: level?.[1] ?? 0, orders: level?.[2] ?? 0 });
  }

  #reject(result: Result, id: number | undefined): Result {
    this.#emit({ type: 'rejected', result, orderId: id });
    return result;
  }

  /** Adds the common fields first, in the engine's key order, so that JSON text can be compared. */
  #emit(fields: EventFields): void {
    const head = { v: 1 as const, symbol: this.spec.symbol, seq: this.#seq, position: this.#position++ };
    const event = { ...head, ...fields };
    // An absent id is left out, not written as undefined.
    if ('orderId' in event && event.orderId === undefined) delete event.orderId;
    this.#out.push(event);
  }
}
