import t from 'tap';
import { feedUpdates, type FeedInterest } from '../../src/core/feed.ts';
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

t.test('only what has a subscriber is built: a symbol, an account, or nothing at all', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  desk.order('bob', { side: 'sell', price: 90, quantity: 30 });
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
  const asked: string[] = [];
  const state = {
    l1: (symbol: string) => {
      asked.push(`l1 ${symbol}`);
      return { bid: null, ask: null };
    },
    order: (id: number) => {
      asked.push(`order ${id}`);
      return orderView(desk.get(id));
    },
  };
  const interest = (symbols: string[], accounts: string[]): FeedInterest => ({
    wantsSymbol: (symbol) => symbols.includes(symbol),
    wantsAccount: (account) => accounts.includes(account),
  });
  const bobOnly = feedUpdates(applied.events, state, interest([], ['bob']));
  t.same([...bobOnly.symbols.keys()], [], 'no md for a symbol nobody watches');
  t.same([...bobOnly.accounts.keys()], ['bob']);
  t.same(asked, [], "neither the book nor alice's completed order was read");
  const aaplOnly = feedUpdates(applied.events, state, interest(['AAPL'], []));
  t.same([...aaplOnly.symbols.keys()], ['AAPL']);
  t.same([...aaplOnly.accounts.keys()], []);
  t.same(asked, ['l1 AAPL']);
  const none = feedUpdates(applied.events, state, interest([], []));
  t.equal(none.symbols.size + none.accounts.size, 0);
  const all = feedUpdates(applied.events, state);
  t.same([...all.symbols.keys()], ['AAPL'], 'by default, everything');
  t.same([...all.accounts.keys()].sort(), ['alice', 'bob']);
});
