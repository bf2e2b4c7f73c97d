import { MSG_CANCEL, MSG_NEW, OUT_CANCELED, OUT_COMPLETED, SIDE_BUY, SIDE_SELL } from '../src/core/codes.ts';
import { MatchingEngine } from '../src/core/engine.ts';
import { RECORD_WIDTH } from '../src/core/output.ts';
import type { SymbolSpec } from '../src/core/symbol-spec.ts';

export const BENCH_SPEC: SymbolSpec = {
  symbol: 'BENCH',
  tickSize: 1,
  lotSize: 1,
  minPrice: 1,
  maxPrice: 200_000,
  maxQuantity: 1_000_000,
};

/** A journal in columns: event i is (type[i], orderId[i], side[i], price[i], quantity[i]), seq i + 1. */
export interface Journal {
  readonly length: number;
  readonly type: Uint8Array;
  readonly orderId: Float64Array;
  readonly side: Uint8Array;
  readonly price: Float64Array;
  readonly quantity: Float64Array;
}

export interface Mix {
  readonly name: string;
  /** Resting orders the generator steers the book toward. */
  readonly targetOrders: number;
  /** Distinct price levels per side that new resting orders spread over (from the touch). */
  readonly depthLevels: number;
  /** Share of events that cancel a resting order, and of aggressive (crossing) orders. */
  readonly cancelShare: number;
  readonly crossShare: number;
  /**
   * Which orders cancels name: any resting order, or only the oldest tenth of them (cancels that
   * lag behind new orders, naming orders that have sat long in long queues).
   */
  readonly cancels: 'any' | 'oldest';
  /** Events of the journal both engines run for the side-by-side ratio (default: all of it). */
  readonly compareEvents?: number;
}

/** exchange-core's flavour: mostly placements and cancels near the touch, some crossing orders. */
export const MIXED: Mix = {
  name: 'mixed',
  targetOrders: 1_000,
  depthLevels: 300,
  cancelShare: 0.38,
  crossShare: 0.1,
  cancels: 'any',
};
/** Long queues on few levels, cancels lagging behind, naming old orders: where walking a level costs. */
export const LAGGING_CANCELS: Mix = {
  name: 'lagging cancels',
  targetOrders: 10_000,
  depthLevels: 20,
  cancelShare: 0.48,
  crossShare: 0.02,
  cancels: 'oldest',
  // nodejs-order-book does about 10,000 ops/s here: the comparison uses the first 200,000 events.
  compareEvents: 200_000,
};

/**
 * Issue #12's third workload: a large book where cancels hit random live orders anywhere in it,
 * and order ids grow into the millions (2,000,000 events make about 1.1 million orders).
 */
export const RANDOM_CANCELS: Mix = {
  name: 'random cancels',
  targetOrders: 20_000,
  depthLevels: 2_000,
  cancelShare: 0.45,
  crossShare: 0.05,
  cancels: 'any',
  compareEvents: 200_000,
};

/** A small seeded generator (mulberry32): the same seed always gives the same numbers. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Generates a valid journal for `mix` by running it through the engine as it goes, so that every
 * cancel names an order that is still resting. Not timed.
 */
export function generateJournal(mix: Mix, length: number, seed: number): Journal {
  const random = rng(seed);
  const journal: Journal = {
    length,
    type: new Uint8Array(length),
    orderId: new Float64Array(length),
    side: new Uint8Array(length),
    price: new Float64Array(length),
    quantity: new Float64Array(length),
  };
  const engine = new MatchingEngine(BENCH_SPEC);
  // Resting orders: `live` for a uniform pick (swap-remove), `arrivals` in arrival order for the
  // oldest ones (gone orders are skipped lazily; `first` is where the oldest live one may be).
  const live: number[] = [];
  const where = new Map<number, number>();
  const arrivals: number[] = [];
  let first = 0;
  const remove = (id: number) => {
    const at = where.get(id);
    if (at === undefined) return;
    const last = live.pop()!;
    if (last !== id) {
      live[at] = last;
      where.set(last, at);
    }
    where.delete(id);
  };
  const pickCancel = (): number => {
    if (mix.cancels === 'any') return live[Math.floor(random() * live.length)]!;
    while (!where.has(arrivals[first]!)) first++;
    // Near the oldest: a random start within a tenth of the book past the oldest live order,
    // then the first order from there that still rests.
    let k = first + Math.floor(random() * Math.max(1, live.length / 10));
    while (k < arrivals.length && !where.has(arrivals[k]!)) k++;
    return k < arrivals.length ? arrivals[k]! : arrivals[first]!;
  };
  const mid = 100_000;
  let nextId = 1;
  for (let i = 0; i < length; i++) {
    const roll = random();
    const steer = live.length < mix.targetOrders ? -0.1 : 0.1;
    let type = MSG_NEW;
    let orderId: number;
    const side = random() < 0.5 ? SIDE_BUY : SIDE_SELL;
    let price: number;
    let quantity = 1 + Math.floor(random() * 100);
    if (roll < mix.cancelShare + steer && live.length > 0) {
      type = MSG_CANCEL;
      orderId = pickCancel();
      price = 0;
      quantity = 0;
    } else if (roll > 1 - mix.crossShare) {
      orderId = nextId++;
      const best = side === SIDE_BUY ? engine.book.bestAsk() : engine.book.bestBid();
      const touch = Number.isNaN(best) ? mid : best;
      price = side === SIDE_BUY ? touch + Math.floor(random() * 3) : touch - Math.floor(random() * 3);
      quantity = 1 + Math.floor(random() * 200);
    } else {
      orderId = nextId++;
      // Skewed toward the touch: most new orders land within a few levels of it.
      const depth = Math.floor(mix.depthLevels * random() ** 3);
      price = side === SIDE_BUY ? mid - 1 - depth : mid + 1 + depth;
    }
    journal.type[i] = type;
    journal.orderId[i] = orderId;
    journal.side[i] = side;
    journal.price[i] = price;
    journal.quantity[i] = quantity;
    engine.out.clear();
    engine.submit(i + 1, type, orderId, side, price, quantity);
    if (type === MSG_NEW) {
      live.push(orderId);
      where.set(orderId, live.length - 1);
      arrivals.push(orderId);
    }
    const r = engine.out.records;
    for (let k = 0; k < engine.out.count; k++) {
      const kind = r[k * RECORD_WIDTH];
      if (kind === OUT_COMPLETED || kind === OUT_CANCELED) remove(r[k * RECORD_WIDTH + 3]!);
    }
  }
  return journal;
}
