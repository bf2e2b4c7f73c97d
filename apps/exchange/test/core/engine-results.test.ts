// The engine's answers besides matching: cancels, refusals (each with its result code) and the
// orders' statuses, for every book.
import t from 'tap';
import { BOOKS, Driver, ofType } from './helpers.ts';

for (const [name, book] of BOOKS) {
  t.test(name, async (t) => {
    t.test(
      'cancel: CANCEL_SUCCESS removes the order; a second cancel is CANNOT_CANCEL_ALREADY_MATCHED',
      async (t) => {
        const d = new Driver(book);
        d.buy(1, 1_500, 100);
        d.buy(2, 1_500, 100);
        const canceled = d.cancel(1);
        t.same(
          canceled.map((e) => e.type),
          ['order.canceled', 'book.level'],
        );
        t.match(canceled[0], { result: 'CANCEL_SUCCESS', orderId: 1, canceledQuantity: 100 });
        t.match(canceled[1], { side: 'buy', price: 1_500, volume: 100, orders: 1 });
        t.notOk(d.engine.book.has(1));
        t.match(d.cancel(1), [{ type: 'rejected', result: 'CANNOT_CANCEL_ALREADY_MATCHED', orderId: 1 }]);
      },
    );

    t.test('cancel of an order that was matched is CANNOT_CANCEL_ALREADY_MATCHED', async (t) => {
      const d = new Driver(book);
      d.sell(1, 1_500, 10);
      d.buy(2, 1_500, 10);
      t.match(d.cancel(1), [{ type: 'rejected', result: 'CANNOT_CANCEL_ALREADY_MATCHED' }]);
      t.match(d.cancel(77), [{ type: 'rejected', result: 'CANNOT_CANCEL_ALREADY_MATCHED' }]);
    });

    t.test('a seq other than the next expected is OUT_OF_ORDER with the expected number', async (t) => {
      const d = new Driver(book);
      d.send({ seq: 1, type: 'NEW', orderId: 1, side: 'buy', price: 1_500, quantity: 10 });
      t.match(d.send({ seq: 3, type: 'NEW', orderId: 2, side: 'buy', price: 1_500, quantity: 10 }), [
        { type: 'rejected', result: 'OUT_OF_ORDER', expectedSeq: 2, seq: 3 },
      ]);
      t.match(d.send({ seq: 1, type: 'CANCEL', orderId: 1 }), [{ result: 'OUT_OF_ORDER', expectedSeq: 2 }]);
      t.equal(d.engine.nextSeq, 2, 'a rejected gap consumes nothing');
      t.match(d.send({ seq: 2, type: 'NEW', orderId: 2, side: 'buy', price: 1_500, quantity: 10 }), [
        { type: 'order.accepted' },
      ]);
    });

    t.test(
      'INVALID_ORDER for a bad symbol, price, quantity, side or id (and it uses up its seq)',
      async (t) => {
        const d = new Driver(book);
        const bad = [
          { symbol: 'MSFT' },
          { price: 0 },
          { price: -5 },
          { price: 1_502 }, // off the 5-tick grid
          { price: 1_500.5 },
          { price: 995 }, // below the band
          { price: 2_005 }, // above the band
          { price: Number.NaN },
          { quantity: 0 },
          { quantity: -10 },
          { quantity: 15 }, // not whole lots of 10
          { quantity: 10.5 },
          { quantity: 1_000_010 }, // above the maximum
          { side: 'hold' },
          { orderId: -1 },
          { orderId: 1.5 },
        ];
        for (const change of bad) {
          const events = d.send({
            type: 'NEW',
            orderId: 9,
            side: 'buy',
            price: 1_500,
            quantity: 10,
            ...change,
          });
          t.match(events, [{ type: 'rejected', result: 'INVALID_ORDER' }], JSON.stringify(change));
        }
        t.equal(d.engine.nextSeq, bad.length + 1, 'every rejected order consumed its seq');
        d.buy(9, 1_500, 10);
        t.match(d.buy(9, 1_500, 10), [{ result: 'INVALID_ORDER', orderId: 9 }], 'an id already resting');
        t.match(d.send({ type: 'CANCEL', orderId: 9, symbol: 'MSFT' }), [{ result: 'INVALID_ORDER' }]);
        t.equal(d.engine.book.size, 1);
      },
    );

    t.test('any message type other than NEW and CANCEL is INVALID_MSG_TYPE', async (t) => {
      const d = new Driver(book);
      t.match(d.send({ type: 'AMEND', orderId: 1 }), [{ type: 'rejected', result: 'INVALID_MSG_TYPE' }]);
      t.match(
        d.send({ type: 'new', orderId: 1 }),
        [{ result: 'INVALID_MSG_TYPE' }],
        'the type is case-sensitive',
      );
    });

    t.test(
      'statuses: new when accepted, still new when partly filled, completed at 0, canceled',
      async (t) => {
        const d = new Driver(book);
        t.match(d.sell(1, 1_500, 30), [{ type: 'order.accepted', status: 'new', orderId: 1 }]);
        const partial = d.buy(2, 1_500, 10);
        t.same(
          ofType(partial, 'order.completed').map((e) => e.orderId),
          [2],
          'the incoming order is filled; the resting one, partly filled, stays new',
        );
        t.ok(d.engine.book.has(1));
        t.equal(d.engine.book.volumeAt(1, 1_500), 20);
        const last = d.buy(3, 1_500, 20);
        t.same(
          ofType(last, 'order.completed').map((e) => [e.orderId, e.status]),
          [
            [1, 'completed'],
            [3, 'completed'],
          ],
          'the resting order reaching 0 and the incoming one both complete',
        );
        d.buy(4, 1_490, 10);
        t.match(d.cancel(4), [{ type: 'order.canceled', status: 'canceled', orderId: 4 }]);
      },
    );

    t.test('a NEW without a symbol is INVALID_ORDER; a CANCEL may leave it out', async (t) => {
      const d = new Driver(book);
      d.buy(1, 1_500, 10);
      t.match(
        d.send({ type: 'NEW', symbol: undefined, orderId: 2, side: 'buy', price: 1_500, quantity: 10 }),
        [{ type: 'rejected', result: 'INVALID_ORDER', orderId: 2 }],
      );
      t.match(d.send({ type: 'CANCEL', symbol: undefined, orderId: 1 }), [{ result: 'CANCEL_SUCCESS' }]);
    });
  });
}
