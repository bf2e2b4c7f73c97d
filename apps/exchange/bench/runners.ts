/**
 * The timed loops of the benchmark. Each replays a journal from its first event through a fresh
 * book; nothing is generated, built or formatted inside them.
 */
import * as hdr from 'hdr-histogram-js';
import { OrderBook as NodejsOrderBook, Side } from 'nodejs-order-book';
import { MSG_NEW, SIDE_BUY } from '../src/core/codes.ts';
import type { MatchingEngine } from '../src/core/engine.ts';
import type { Journal } from './stream.ts';

/**
 * Throughput: the first `events` of the journal through the numeric entry point of an engine made
 * fresh for this run (by the caller, before the clock starts), the output records read by nobody
 * and cleared after each event. Returns milliseconds.
 */
export function runEngine(engine: MatchingEngine, journal: Journal, events = journal.length): number {
  const out = engine.out;
  const { type, orderId, side, price, quantity } = journal;
  const start = performance.now();
  for (let i = 0; i < events; i++) {
    engine.submit(i + 1, type[i]!, orderId[i]!, side[i]!, price[i]!, quantity[i]!);
    out.clear();
  }
  return performance.now() - start;
}

/** The same events through nodejs-order-book's limit() and cancel(), ids as the strings it wants. */
export function runNodejsOrderBook(journal: Journal, ids: readonly string[], events: number): number {
  const book = new NodejsOrderBook();
  const { type, side, price, quantity } = journal;
  const start = performance.now();
  for (let i = 0; i < events; i++) {
    if (type[i] === MSG_NEW) {
      book.limit({
        side: side[i] === SIDE_BUY ? Side.BUY : Side.SELL,
        id: ids[i]!,
        size: quantity[i]!,
        price: price[i]!,
      });
    } else book.cancel(ids[i]!);
  }
  return performance.now() - start;
}

/** A histogram of nanoseconds, 3 significant digits, up to 10 s (no resizing while recording). */
export function histogram(): hdr.Histogram {
  return hdr.build({
    bitBucketSize: 32,
    autoResize: false,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 10_000_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

/**
 * Latency: a separate pass that times every event on its own with performance.now() (a double,
 * so no BigInt is allocated per sample) and records the nanoseconds into an HDR histogram.
 * The figures include one timer read (see `timerOverhead`).
 */
export function latencies(engine: MatchingEngine, journal: Journal): hdr.Histogram {
  const h = histogram();
  const out = engine.out;
  const { type, orderId, side, price, quantity } = journal;
  for (let i = 0; i < journal.length; i++) {
    const t0 = performance.now();
    engine.submit(i + 1, type[i]!, orderId[i]!, side[i]!, price[i]!, quantity[i]!);
    const t1 = performance.now();
    out.clear();
    h.recordValue(Math.round((t1 - t0) * 1e6));
  }
  return h;
}

/** What the latency pass measures when the timed section is empty: the cost of the clock itself. */
export function timerOverhead(samples: number): hdr.Histogram {
  const h = histogram();
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const t1 = performance.now();
    h.recordValue(Math.round((t1 - t0) * 1e6));
  }
  return h;
}
