import t from 'tap';
import type { Field } from '../../src/fix/codec.ts';
import { FixOrderGateway } from '../../src/fix/order-gateway.ts';
import { T0 } from '../core/exchange-rules.ts';
import { nos, session, tags, venue } from './gateway-fixtures.ts';

t.test(
  'an order placed over REST before the session logged on reports its fills from where they stand',
  async (t) => {
    const service = await venue(t);
    const gateway = new FixOrderGateway(service, () => T0);
    t.teardown(() => gateway.close());
    const resting = await service.placeOrder('alice', {
      symbol: 'AAPL',
      side: 'buy',
      price: 100,
      orderType: 'limit',
      quantity: 10,
    });
    await service.placeOrder('bob', {
      symbol: 'AAPL',
      side: 'sell',
      price: 100,
      orderType: 'limit',
      quantity: 3,
    });
    const alice = session('alice');
    gateway.attach(alice);
    await service.placeOrder('bob', {
      symbol: 'AAPL',
      side: 'sell',
      price: 100,
      orderType: 'limit',
      quantity: 4,
    });
    t.equal(alice.sent.length, 1);
    t.match(tags(alice.sent[0]!), {
      35: '8',
      37: String(resting.id),
      11: String(resting.id),
      150: 'F',
      39: '1',
      32: '4',
      14: '7',
      151: '3',
    });
  },
);

t.test('a resting order canceled by self-trade prevention says why', async (t) => {
  const service = await venue(t);
  const gateway = new FixOrderGateway(service, () => T0);
  t.teardown(() => gateway.close());
  const alice = session('alice');
  gateway.attach(alice);
  gateway.receive(
    alice,
    'D',
    nos([
      [11, 'b1'],
      [55, 'AAPL'],
      [54, '1'],
      [38, '5'],
      [44, '100'],
    ]),
    2,
  );
  await service.durable();
  gateway.receive(
    alice,
    'D',
    nos([
      [11, 's1'],
      [55, 'AAPL'],
      [54, '2'],
      [38, '5'],
      [44, '100'],
    ]),
    3,
  );
  await service.durable();
  const reports = alice.sent.map(tags);
  t.match(reports[0], { 11: 'b1', 150: '0' });
  t.ok(
    reports.some((r) => r[11] === 'b1' && r[150] === '4' && r[58] === 'canceled: self-trade'),
    JSON.stringify(reports),
  );
});

t.test('a duplicate open ClOrdID, an unknown cancel and an unsupported message are refused', async (t) => {
  const service = await venue(t);
  const gateway = new FixOrderGateway(service, () => T0);
  t.teardown(() => gateway.close());
  const alice = session('alice');
  gateway.attach(alice);
  const order: Field[] = [
    [11, 'b1'],
    [55, 'AAPL'],
    [54, '1'],
    [38, '5'],
    [44, '100'],
  ];
  gateway.receive(alice, 'D', nos(order), 2);
  gateway.receive(alice, 'D', nos(order), 3);
  await service.durable();
  t.match(tags(alice.sent[0]!), { 11: 'b1', 150: '8', 103: '6' }, 'the duplicate is rejected at once');
  gateway.receive(
    alice,
    'F',
    nos([
      [41, 'nope'],
      [11, 'x1'],
      [55, 'AAPL'],
      [54, '1'],
    ]),
    4,
  );
  t.match(tags(alice.sent.at(-1)!), { 35: '9', 41: 'nope', 102: '1', 434: '1' });
  gateway.receive(alice, 'V', nos([]), 5);
  t.match(tags(alice.sent.at(-1)!), { 35: 'j', 45: '5', 372: 'V', 380: '3' });
  t.equal(service.orders('alice').data.length, 1, 'one order only');
});
