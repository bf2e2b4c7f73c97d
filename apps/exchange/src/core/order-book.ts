import type { SideCode } from './codes.ts';
import type { Emitter } from './emitter.ts';
import type { SymbolSpec } from './symbol-spec.ts';

/**
 * One symbol's book: a buy side and a sell side of price levels, each level's orders first in,
 * first out. The engine validates and sequences; a book matches and rests. Two implementations
 * share this interface and one test suite: the fast `LadderOrderBook` and, in the tests, an
 * obviously-correct reference model.
 */
export interface OrderBook {
  readonly spec: SymbolSpec;
  /** Resting orders. */
  readonly size: number;
  /**
   * A new limit order, already validated, with an id not in the book: matches it against the
   * other side (best price first, FIFO within a level, at the resting order's price) and rests
   * what remains. Emits accepted, executions, level changes and completions.
   */
  placeLimit(orderId: number, side: SideCode, price: number, quantity: number, emit: Emitter): void;
  /** Removes a resting order (emits canceled and the level change); false when it is not in the book. */
  cancel(orderId: number, emit: Emitter): boolean;
  has(orderId: number): boolean;
  /** Best bid / best ask price, NaN when the side is empty. */
  bestBid(): number;
  bestAsk(): number;
  /** Total resting quantity at a price (0 when none). */
  volumeAt(side: SideCode, price: number): number;
  /** Levels of one side, best first, until `visit` returns false (a reader wanting the best few stops early). */
  forEachLevel(
    side: SideCode,
    visit: (price: number, volume: number, orders: number) => boolean | void,
  ): void;
  /** The orders resting at one price of one side, in arrival order. */
  forEachOrderAt(
    side: SideCode,
    price: number,
    visit: (orderId: number, remaining: number, filled: number) => void,
  ): void;
  /** Every resting order: bids best to worst then asks best to worst, each level in arrival order. */
  forEachOrder(
    visit: (orderId: number, side: SideCode, price: number, remaining: number, filled: number) => void,
  ): void;
  /** Puts back a resting order at the tail of its level, with no matching and no output (restore). */
  restore(orderId: number, side: SideCode, price: number, remaining: number, filled: number): void;
}
