import t from 'tap';
import {
  boundOpened,
  crosses,
  mayCross,
  scanCrossing,
  type Bound,
  type Resting,
} from '../../src/core/self-trade.ts';

const noBound = (): Bound => ({ minSell: Infinity, maxBuy: -Infinity });

/** The definition: the resting orders the incoming one would meet, oldest first. */
const selfCrossing = (side: 'buy' | 'sell', price: number, resting: readonly Resting[]): number[] =>
  resting
    .filter((order) => crosses(side, price, order))
    .map((order) => order.id)
    .sort((a, b) => a - b);

t.test('crossing is by price against the other side', async (t) => {
  t.ok(crosses('buy', 100, { id: 1, side: 'sell', price: 100 }));
  t.ok(crosses('buy', 100, { id: 1, side: 'sell', price: 99 }));
  t.notOk(crosses('buy', 100, { id: 1, side: 'sell', price: 101 }));
  t.notOk(crosses('buy', 100, { id: 1, side: 'buy', price: 90 }));
  t.ok(crosses('sell', 100, { id: 1, side: 'buy', price: 100 }));
  t.notOk(crosses('sell', 100, { id: 1, side: 'buy', price: 99 }));
  const resting = [
    { id: 7, symbol: 'AAPL', side: 'sell' as const, price: 98 },
    { id: 3, symbol: 'AAPL', side: 'sell' as const, price: 100 },
    { id: 5, symbol: 'AAPL', side: 'sell' as const, price: 101 },
  ];
  t.same(scanCrossing(noBound(), 'buy', 100, resting), [3, 7], 'oldest first');
});

t.test('bounds answer "cannot cross" without a scan, and never wrongly', async (t) => {
  const bound = noBound();
  t.notOk(mayCross(bound, 'buy', 1_000));
  t.notOk(mayCross(bound, 'sell', 1));
  boundOpened(bound, 'sell', 105);
  boundOpened(bound, 'buy', 95);
  t.notOk(mayCross(bound, 'buy', 104));
  t.ok(mayCross(bound, 'buy', 105));
  t.ok(mayCross(bound, 'sell', 95));
  t.notOk(mayCross(bound, 'sell', 96));
  // The 105 sell went: a scan of what is open tightens the bound.
  t.same(scanCrossing(bound, 'buy', 105, [{ id: 2, side: 'sell', price: 110 }]), []);
  t.notOk(mayCross(bound, 'buy', 109));
  t.notOk(mayCross(bound, 'sell', 1), 'no open buys left');
});

t.test(
  "a scan of the symbol's open orders answers what selfCrossing does and leaves the bounds exact",
  async (t) => {
    const open = [
      { id: 7, symbol: 'AAPL', side: 'sell' as const, price: 98 },
      { id: 2, symbol: 'MSFT', side: 'sell' as const, price: 90 },
      { id: 3, symbol: 'AAPL', side: 'sell' as const, price: 100 },
      { id: 5, symbol: 'AAPL', side: 'sell' as const, price: 101 },
      { id: 9, symbol: 'AAPL', side: 'buy' as const, price: 97 },
    ];
    const bounds = new Map([
      ['AAPL', noBound()],
      ['MSFT', noBound()],
    ]);
    for (const o of open) boundOpened(bounds.get(o.symbol)!, o.side, o.price);
    const bound = bounds.get('AAPL')!;
    const aapl = open.filter((o) => o.symbol === 'AAPL');
    for (const [side, price] of [
      ['buy', 100],
      ['buy', 97],
      ['sell', 97],
      ['sell', 96],
      ['buy', 101],
    ] as const)
      t.same(scanCrossing(bound, side, price, aapl), selfCrossing(side, price, aapl), `${side} at ${price}`);
    t.notOk(mayCross(bound, 'buy', 97), 'the sells start at 98');
    t.ok(mayCross(bound, 'buy', 98));
    t.notOk(mayCross(bound, 'sell', 98), 'the buys end at 97');
    t.ok(mayCross(bound, 'sell', 97));
    t.ok(mayCross(bounds.get('MSFT')!, 'buy', 90), 'another symbol keeps its own');
  },
);
