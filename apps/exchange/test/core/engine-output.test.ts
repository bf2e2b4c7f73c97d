import t from 'tap';
import { MSG_CANCEL } from '../../src/core/codes.ts';
import { readOutput, type Batch } from '../../src/core/engine-output.ts';
import { Desk, T0 } from './exchange-rules.ts';

t.test('a batch not recording changes state exactly as one recording, without events', async (t) => {
  const run = (record: boolean) => {
    const desk = new Desk();
    desk.deposit('alice', 10_000);
    desk.deposit('bob', 0, { AAPL: 100 });
    desk.order('bob', { side: 'sell', price: 90, quantity: 30 });
    desk.manager.recordEvents = record;
    const applied = desk.apply({
      v: 1,
      type: 'order.new',
      at: T0,
      account: 'alice',
      orderId: desk.manager.nextOrderId,
      symbol: 'AAPL',
      side: 'buy',
      price: 100,
      quantity: 50,
    });
    return { desk, applied };
  };
  const on = run(true);
  const off = run(false);
  t.ok(on.applied.events.some((e) => e.type === 'execution'));
  t.same(off.applied.events, []);
  t.same(off.desk.cash('alice'), on.desk.cash('alice'));
  t.same(off.desk.get(2), on.desk.get(2));
  t.equal(off.desk.manager.nextExecutionId, on.desk.manager.nextExecutionId);
});

t.test('an engine reject of a cancel answers the spec result and leaves the order alone', async (t) => {
  const desk = new Desk();
  desk.deposit('alice', 10_000);
  const id = desk.order('alice', { side: 'buy', price: 100, quantity: 5 }) as number;
  const engine = desk.manager.engines.get('AAPL')!;
  engine.out.clear();
  // Out of order on purpose: the engine answers OUT_OF_ORDER with the sequence it expects.
  engine.submit(engine.nextSeq + 5, MSG_CANCEL, id, 0, 0, 0);
  const batch: Batch = { seq: 99, at: T0, events: [], record: true };
  const refusal = readOutput(desk.manager, engine, 'request', batch);
  t.match(refusal, {
    code: 'EX_OUT_OF_ORDER',
    extra: { result: 'OUT_OF_ORDER', expectedSeq: engine.nextSeq },
  });
  t.equal(engine.out.count, 0, 'the output is cleared');
  t.match(desk.get(id), { status: 'new', remainingQuantity: 5 });
  t.same(desk.cash('alice'), { available: 9_500, reserved: 500 });
});

t.test(
  'a cancel or fill of an order whose exposure is missing throws, not starts it again at zero',
  async (t) => {
    const desk = new Desk();
    desk.deposit('alice', 10_000);
    desk.deposit('bob', 0, { AAPL: 100 });
    const buy = desk.order('alice', { side: 'buy', price: 100, quantity: 5 }) as number;
    desk.order('bob', { side: 'sell', price: 101, quantity: 5 });
    // A bug that lost the exposures: the state no longer knows what the orders placed.
    for (const id of ['alice', 'bob']) {
      const account = desk.manager.account(id)!;
      account.exposure.delete('AAPL');
      account.holdings.get('AAPL')!.exposure = undefined;
    }
    t.throws(() => desk.cancel('alice', buy), /no exposure in AAPL/);
    desk.deposit('carol', 10_000);
    const take = { side: 'buy', price: 101, quantity: 5 } as const;
    t.throws(() => desk.order('carol', take), /no exposure in AAPL/, 'the seller of a fill');
  },
);
