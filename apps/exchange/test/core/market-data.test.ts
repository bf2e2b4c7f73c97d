import t from 'tap';
import { MatchingEngine } from '../../src/core/engine.ts';
import { candles, level1, level2, level3 } from '../../src/core/market-data.ts';
import { TradeTape } from '../../src/core/trade-tape.ts';

const spec = { symbol: 'AAPL', tickSize: 1, lotSize: 1, minPrice: 1, maxPrice: 1_000, maxQuantity: 1_000 };

function book() {
  const engine = new MatchingEngine(spec);
  let seq = 1;
  const add = (orderId: number, side: string, price: number, quantity: number) =>
    engine.process({ seq: seq++, type: 'NEW', symbol: 'AAPL', orderId, side, price, quantity });
  add(1, 'buy', 99, 10);
  add(2, 'buy', 99, 5);
  add(3, 'buy', 98, 7);
  add(4, 'buy', 97, 1);
  add(5, 'sell', 101, 4);
  add(6, 'sell', 103, 2);
  return engine.book;
}

t.test('L1, L2 and L3 views', async (t) => {
  const b = book();
  t.same(level1(b), { bid: { price: 99, quantity: 15 }, ask: { price: 101, quantity: 4 } });
  t.same(level2(b, 2), {
    bids: [
      { price: 99, quantity: 15 },
      { price: 98, quantity: 7 },
    ],
    asks: [
      { price: 101, quantity: 4 },
      { price: 103, quantity: 2 },
    ],
  });
  t.same(level3(b, 1), {
    bids: [
      {
        price: 99,
        quantity: 15,
        orders: [
          { id: 1, quantity: 10 },
          { id: 2, quantity: 5 },
        ],
      },
    ],
    asks: [{ price: 101, quantity: 4, orders: [{ id: 5, quantity: 4 }] }],
  });
  t.same(level1(new MatchingEngine(spec).book), { bid: null, ask: null });
  t.same(level2(new MatchingEngine(spec).book, 5), { bids: [], asks: [] });
});

t.test('a book read walks only the levels it returns', async (t) => {
  const b = book();
  let visited = 0;
  const counting: typeof b = Object.create(b, {
    forEachLevel: {
      value: (side: 0 | 1, visit: (price: number, volume: number, orders: number) => boolean | void) =>
        b.forEachLevel(side, (price, volume, orders) => {
          visited++;
          return visit(price, volume, orders);
        }),
    },
    forEachOrderAt: { value: b.forEachOrderAt.bind(b) },
  }) as typeof b;
  t.same(level2(counting, 1), level2(b, 1));
  t.equal(visited, 2, 'L2 at depth 1: one level a side, of the 3 bids and 2 asks');
  visited = 0;
  t.same(level3(counting, 2), level3(b, 2));
  t.equal(visited, 4, 'L3 at depth 2: two levels a side');
  visited = 0;
  t.same(level2(counting, 1_000), level2(b, 1_000));
  t.equal(visited, 5, 'a depth past the book: every level once');
});

t.test('orders at a price off the ladder: none', async (t) => {
  const b = book();
  const seen: number[] = [];
  for (const price of [0, 1_001, 99.5, -3, Number.NaN]) b.forEachOrderAt(0, price, (id) => seen.push(id));
  b.forEachOrderAt(0, 99, (id) => seen.push(id));
  t.same(seen, [1, 2], 'only the orders at 99');
});

t.test('candles: aligned to the resolution, empty intervals left out, end exclusive', async (t) => {
  const tape = new TradeTape();
  tape.record(60_000, 10, 1);
  tape.record(61_000, 12, 2);
  tape.record(119_999, 9, 3);
  tape.record(240_000, 11, 4);
  t.same(candles(tape, 60, 0, 1_000_000), [
    { open: 10, close: 9, high: 12, low: 9, volume: 6, timestamp: 60_000 },
    { open: 11, close: 11, high: 11, low: 11, volume: 4, timestamp: 240_000 },
  ]);
  t.same(candles(tape, 60, 61_000, 240_000), [
    { open: 12, close: 9, high: 12, low: 9, volume: 5, timestamp: 60_000 },
  ]);
  t.same(candles(tape, 1, 0, 60_000), []);
  t.equal(tape.firstAtOrAfter(119_999), 2);
  t.equal(tape.firstAtOrAfter(1e12), 4);
});
