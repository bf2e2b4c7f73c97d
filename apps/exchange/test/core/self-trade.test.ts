import t from 'tap';
import { CrossingBounds, crosses, selfCrossing } from '../../src/core/self-trade.ts';

t.test('crossing is by price against the other side', async (t) => {
  t.ok(crosses('buy', 100, { id: 1, side: 'sell', price: 100 }));
  t.ok(crosses('buy', 100, { id: 1, side: 'sell', price: 99 }));
  t.notOk(crosses('buy', 100, { id: 1, side: 'sell', price: 101 }));
  t.notOk(crosses('buy', 100, { id: 1, side: 'buy', price: 90 }));
  t.ok(crosses('sell', 100, { id: 1, side: 'buy', price: 100 }));
  t.notOk(crosses('sell', 100, { id: 1, side: 'buy', price: 99 }));
  const resting = [
    { id: 7, side: 'sell' as const, price: 98 },
    { id: 3, side: 'sell' as const, price: 100 },
    { id: 5, side: 'sell' as const, price: 101 },
  ];
  t.same(selfCrossing('buy', 100, resting), [3, 7], 'oldest first');
});

t.test('bounds answer "cannot cross" without a scan, and never wrongly', async (t) => {
  const bounds = new CrossingBounds();
  t.notOk(bounds.mayCross('AAPL', 'buy', 1_000));
  bounds.opened('AAPL', 'sell', 105);
  bounds.opened('AAPL', 'buy', 95);
  t.notOk(bounds.mayCross('AAPL', 'buy', 104));
  t.ok(bounds.mayCross('AAPL', 'buy', 105));
  t.ok(bounds.mayCross('AAPL', 'sell', 95));
  t.notOk(bounds.mayCross('AAPL', 'sell', 96));
  t.notOk(bounds.mayCross('MSFT', 'sell', 1));
  // The 105 sell went: a reset from what is open tightens the bound.
  bounds.reset('AAPL', [{ id: 2, side: 'sell', price: 110 }]);
  t.notOk(bounds.mayCross('AAPL', 'buy', 109));
  t.notOk(bounds.mayCross('AAPL', 'sell', 1), 'no open buys left');
});
