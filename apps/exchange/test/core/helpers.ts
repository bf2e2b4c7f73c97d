import { MatchingEngine, type InputEvent } from '../../src/core/engine.ts';
import { LadderOrderBook } from '../../src/core/ladder-order-book.ts';
import type { OrderBook } from '../../src/core/order-book.ts';
import { toEvents, type EngineEvent } from '../../src/core/output.ts';
import type { SymbolSpec } from '../../src/core/symbol-spec.ts';
import { ReferenceOrderBook } from './reference-book.ts';

export const SPEC: SymbolSpec = {
  symbol: 'AAPL',
  tickSize: 5,
  lotSize: 10,
  minPrice: 1_000,
  maxPrice: 2_000,
  maxQuantity: 1_000_000,
};

/** Both books behind the one interface: every shared test runs against each. */
export const BOOKS: ReadonlyArray<readonly [string, (spec: SymbolSpec) => OrderBook]> = [
  ['ladder book', (spec) => new LadderOrderBook(spec)],
  ['reference book', (spec) => new ReferenceOrderBook(spec)],
];

/** An engine that numbers inputs itself, for tests that are not about sequencing. */
export class Driver {
  readonly engine: MatchingEngine;
  #seq = 1;

  constructor(book: (spec: SymbolSpec) => OrderBook, spec: SymbolSpec = SPEC) {
    this.engine = new MatchingEngine(spec, { book });
  }

  /** Processes one event (seq filled in) and returns its output as events. */
  send(event: Omit<InputEvent, 'seq'> & { seq?: number }): EngineEvent[] {
    this.engine.out.clear();
    this.engine.process({ symbol: SPEC.symbol, ...event, seq: event.seq ?? this.#seq++ });
    return toEvents(this.engine.spec.symbol, this.engine.out);
  }

  buy(orderId: number, price: number, quantity: number): EngineEvent[] {
    return this.send({ type: 'NEW', orderId, side: 'buy', price, quantity });
  }

  sell(orderId: number, price: number, quantity: number): EngineEvent[] {
    return this.send({ type: 'NEW', orderId, side: 'sell', price, quantity });
  }

  cancel(orderId: number): EngineEvent[] {
    return this.send({ type: 'CANCEL', orderId });
  }

  levels(side: 0 | 1): Array<[number, number, number]> {
    const levels: Array<[number, number, number]> = [];
    this.engine.book.forEachLevel(side, (price, volume, orders) => {
      levels.push([price, volume, orders]);
    });
    return levels;
  }
}

export function ofType<T extends EngineEvent['type']>(events: EngineEvent[], type: T) {
  return events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
}
