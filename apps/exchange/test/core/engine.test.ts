import t from 'tap';
import { ACCEPTED, RESULT, resultName } from '../../src/core/codes.ts';
import { BOOKS, Driver, ofType } from './helpers.ts';

for (const [name, book] of BOOKS) {
  t.test(name, async (t) => {
    t.test('a new order that does not cross rests: accepted, level, best bid and ask', async (t) => {
      const d = new Driver(book);
      const events = d.buy(1, 1_500, 100);
      t.same(
        events.map((e) => e.type),
        ['order.accepted', 'book.level'],
      );
      d.sell(2, 1_510, 50);
      t.equal(d.engine.book.bestBid(), 1_500);
      t.equal(d.engine.book.bestAsk(), 1_510);
      t.equal(d.engine.book.volumeAt(0, 1_500), 100);
      t.equal(d.engine.book.size, 2);
      t.ok(Number.isNaN(new Driver(book).engine.book.bestBid()), 'an empty side has no best price');
    });

    t.test('a buy matches the sell book at the resting price: two executions, buyer first', async (t) => {
      const d = new Driver(book);
      d.sell(1, 1_500, 100);
      const events = d.buy(2, 1_600, 100);
      const executions = ofType(events, 'execution');
      t.same(
        executions.map((e) => [e.orderId, e.side, e.price, e.quantity, e.counterOrderId, e.result]),
        [
          [2, 'buy', 1_500, 100, 1, 'MATCH_SUCCESS'],
          [1, 'sell', 1_500, 100, 2, 'MATCH_SUCCESS'],
        ],
      );
      t.same(
        ofType(events, 'order.completed').map((e) => e.orderId),
        [1, 2],
        'both orders are completed',
      );
      t.equal(d.engine.book.size, 0);
    });

    t.test('a sell matches the buy book, executions still buyer first', async (t) => {
      const d = new Driver(book);
      d.buy(1, 1_500, 100);
      d.engine.out.clear();
      t.equal(d.engine.submit(2, 1, 2, 1, 1_400, 40), RESULT.MATCH_SUCCESS);
      const events = d.send({ seq: 3, type: 'NEW', orderId: 3, side: 'sell', price: 1_400, quantity: 10 });
      t.same(
        ofType(events, 'execution').map((e) => [e.orderId, e.side, e.price]),
        [
          [1, 'buy', 1_500],
          [3, 'sell', 1_500],
        ],
      );
    });

    t.test('best price first across levels, first in first out within a level', async (t) => {
      const d = new Driver(book);
      d.sell(1, 1_510, 10);
      d.sell(2, 1_500, 10);
      d.sell(3, 1_500, 10);
      d.sell(4, 1_505, 10);
      const events = d.buy(5, 1_510, 40);
      t.same(
        ofType(events, 'execution')
          .filter((e) => e.side === 'sell')
          .map((e) => [e.orderId, e.price]),
        [
          [2, 1_500],
          [3, 1_500],
          [4, 1_505],
          [1, 1_510],
        ],
      );
    });

    t.test('each step fills the smaller quantity; the remainder rests; partial fills stay new', async (t) => {
      const d = new Driver(book);
      d.sell(1, 1_500, 30);
      d.sell(2, 1_500, 50);
      const events = d.buy(3, 1_500, 60);
      t.same(
        ofType(events, 'execution')
          .filter((e) => e.side === 'buy')
          .map((e) => e.quantity),
        [30, 30],
      );
      t.same(
        ofType(events, 'order.completed').map((e) => e.orderId),
        [1, 3],
      );
      t.equal(d.engine.book.volumeAt(1, 1_500), 20, 'order 2 keeps 20, still in the book');
      t.ok(d.engine.book.has(2));

      const rest = d.buy(4, 1_505, 50);
      t.same(
        ofType(rest, 'book.level').at(-1),
        {
          v: 1,
          symbol: 'AAPL',
          seq: 4,
          position: rest.at(-1)!.position,
          type: 'book.level',
          side: 'buy',
          price: 1_505,
          volume: 30,
          orders: 1,
        },
        'the remaining 30 rest at the buy limit',
      );
      t.equal(d.engine.book.bestBid(), 1_505);
      t.ok(Number.isNaN(d.engine.book.bestAsk()));
    });

    t.test("a level's volume and order count follow adds, partial fills, fills and cancels", async (t) => {
      const d = new Driver(book);
      d.sell(1, 1_500, 30);
      d.sell(2, 1_500, 40);
      d.sell(3, 1_500, 50);
      t.same(d.levels(1), [[1_500, 120, 3]]);
      d.buy(4, 1_500, 40); // fills 1 (30) and 10 of 2
      t.same(d.levels(1), [[1_500, 80, 2]]);
      d.cancel(3);
      t.same(d.levels(1), [[1_500, 30, 1]]);
      d.cancel(2);
      t.same(d.levels(1), []);
      t.equal(d.engine.book.volumeAt(1, 1_500), 0);
      t.ok(Number.isNaN(d.engine.book.bestAsk()));
    });

    t.test('submit returns the result code', async (t) => {
      const d = new Driver(book);
      t.equal(d.engine.submit(1, 1, 1, 0, 1_500, 10), ACCEPTED);
      t.equal(d.engine.submit(2, 1, 2, 1, 1_500, 10), RESULT.MATCH_SUCCESS);
      t.equal(d.engine.submit(3, 2, 2, 0, 0, 0), RESULT.CANNOT_CANCEL_ALREADY_MATCHED);
      t.equal(d.engine.submit(9, 1, 3, 0, 1_500, 10), RESULT.OUT_OF_ORDER);
      t.equal(resultName(RESULT.CANCEL_SUCCESS), 'CANCEL_SUCCESS');
    });

    t.test('levels iterate in price order, best first, with volume and order count', async (t) => {
      const d = new Driver(book);
      d.buy(1, 1_500, 10);
      d.buy(2, 1_490, 20);
      d.buy(3, 1_500, 30);
      d.sell(4, 1_600, 10);
      d.sell(5, 1_550, 10);
      t.same(d.levels(0), [
        [1_500, 40, 2],
        [1_490, 20, 1],
      ]);
      t.same(d.levels(1), [
        [1_550, 10, 1],
        [1_600, 10, 1],
      ]);
    });

    t.test('an aggressive order sweeps levels and updates best prices', async (t) => {
      const d = new Driver(book);
      for (let i = 0; i < 10; i++) d.sell(i + 1, 1_500 + i * 5, 10);
      d.buy(100, 1_520, 1_000);
      t.equal(d.engine.book.bestAsk(), 1_525);
      t.equal(d.engine.book.bestBid(), 1_520);
      t.equal(d.engine.book.volumeAt(0, 1_520), 950);
    });

    t.test('outputs carry the input seq and their own consecutive positions', async (t) => {
      const d = new Driver(book);
      const a = d.sell(1, 1_500, 10);
      const b = d.buy(2, 1_500, 10);
      const all = [...a, ...b];
      t.same(
        all.map((e) => e.position),
        all.map((_, i) => i + 1),
      );
      t.ok(b.every((e) => e.seq === 2));
      t.same(
        ofType(b, 'execution').map((e) => e.id),
        [1, 2],
      );
    });
  });
}
