import t from 'tap';
import { feedUpdates } from '../../src/core/feed.ts';
import { orderView } from '../../src/core/views.ts';
import { Desk } from './exchange-rules.ts';

t.test("a batch's events become one md per symbol and one account update per account", async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  const sell = desk.order('bob', { side: 'sell', price: 90, quantity: 30 }) as number;
  const applied = desk.apply({
    v: 1,
    type: 'order.new',
    at: desk.at,
    account: 'alice',
    orderId: desk.manager.nextOrderId,
    symbol: 'AAPL',
    side: 'buy',
    price: 100,
    quantity: 10,
  });
  const { symbols, accounts } = feedUpdates(applied.events, {
    l1: () => ({ bid: null, ask: { price: 90, quantity: 20 } }),
    order: (id) => orderView(desk.get(id)),
  });
  t.same([...symbols.keys()], ['AAPL']);
  t.match(symbols.get('AAPL'), {
    type: 'md',
    seq: desk.manager.seq,
    fromSeq: desk.manager.seq,
    levels: [{ side: 'sell', price: 90, quantity: 20 }],
    trades: [{ price: 90, quantity: 10 }],
    l1: { ask: { price: 90, quantity: 20 } },
  });
  t.equal(symbols.get('AAPL')!.trades.length, 1, 'one trade per match, not one per side');
  t.match(accounts.get('bob')!.events, [{ type: 'execution', execution: { orderId: sell, side: 'sell' } }]);
  const alice = accounts.get('alice')!.events.map((e) => e.type);
  t.same(alice, ['order.accepted', 'execution', 'order.completed']);
  t.notOk(JSON.stringify([...accounts.values()]).includes('"account":'), 'views carry no account ids');
});
