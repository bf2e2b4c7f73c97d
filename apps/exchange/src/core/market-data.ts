/**
 * Market data views, pure: L1, L2 and L3 from a symbol's book, candles from its trade tape.
 * The views carry no account ids (L3 shows order ids and quantities, as venues' full-depth feeds do).
 */
import { SIDE_BUY, SIDE_SELL, type SideCode } from './codes.ts';
import type { OrderBook } from './order-book.ts';
import type { TradeTape } from './trade-tape.ts';

export interface Level {
  readonly price: number;
  readonly quantity: number;
}

export interface L1 {
  readonly bid: Level | null;
  readonly ask: Level | null;
}

export interface L2 {
  readonly bids: Level[];
  readonly asks: Level[];
}

export interface L3Level {
  readonly price: number;
  readonly quantity: number;
  readonly orders: Array<{ readonly id: number; readonly quantity: number }>;
}

export interface L3 {
  readonly bids: L3Level[];
  readonly asks: L3Level[];
}

export interface Candle {
  readonly open: number;
  readonly close: number;
  readonly high: number;
  readonly low: number;
  readonly volume: number;
  /** Start of the candle's interval, milliseconds since the epoch. */
  readonly timestamp: number;
}

function best(book: OrderBook, side: SideCode): Level | null {
  const price = side === SIDE_BUY ? book.bestBid() : book.bestAsk();
  return Number.isNaN(price) ? null : { price, quantity: book.volumeAt(side, price) };
}

export function level1(book: OrderBook): L1 {
  return { bid: best(book, SIDE_BUY), ask: best(book, SIDE_SELL) };
}

function levels(book: OrderBook, side: SideCode, depth: number): Level[] {
  const list: Level[] = [];
  if (depth > 0)
    book.forEachLevel(side, (price, volume) => {
      list.push({ price, quantity: volume });
      return list.length < depth;
    });
  return list;
}

/** The best `depth` levels of each side, best first. */
export function level2(book: OrderBook, depth: number): L2 {
  return { bids: levels(book, SIDE_BUY, depth), asks: levels(book, SIDE_SELL, depth) };
}

/** The orders queued at the best `depth` levels of one side, each level in time priority. */
function ordersByLevel(book: OrderBook, side: SideCode, depth: number): L3Level[] {
  const list: L3Level[] = [];
  if (depth > 0)
    book.forEachLevel(side, (price, quantity) => {
      const orders: { id: number; quantity: number }[] = [];
      book.forEachOrderAt(side, price, (id, remaining) => orders.push({ id, quantity: remaining }));
      list.push({ price, quantity, orders });
      return list.length < depth;
    });
  return list;
}

/** Every order queued at the best `depth` levels of each side, in time priority. */
export function level3(book: OrderBook, depth: number): L3 {
  return { bids: ordersByLevel(book, SIDE_BUY, depth), asks: ordersByLevel(book, SIDE_SELL, depth) };
}

/**
 * Candles of `resolution` seconds over [startTime, endTime), aligned to multiples of the
 * resolution since the epoch; intervals without trades are left out (no invented prices).
 */
export function candles(tape: TradeTape, resolution: number, startTime: number, endTime: number): Candle[] {
  const width = resolution * 1000;
  const list: Candle[] = [];
  let current:
    { open: number; close: number; high: number; low: number; volume: number; timestamp: number } | undefined;
  for (let i = tape.firstAtOrAfter(startTime); i < tape.length && tape.at[i]! < endTime; i++) {
    const price = tape.price[i]!;
    const timestamp = Math.floor(tape.at[i]! / width) * width;
    if (current?.timestamp !== timestamp) {
      current = { open: price, close: price, high: price, low: price, volume: 0, timestamp };
      list.push(current);
    }
    current.close = price;
    current.high = Math.max(current.high, price);
    current.low = Math.min(current.low, price);
    current.volume += tape.quantity[i]!;
  }
  return list;
}
