import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Field } from '../../src/fix/codec.ts';
import { FixOrderGateway } from '../../src/fix/order-gateway.ts';
import { T0 } from '../core/exchange-rules.ts';
import { buyB1, nos, openService, session, statusRequest, tags, venue } from './gateway-fixtures.ts';

t.test(
  'a resent order already placed answers its state and places nothing; a plain duplicate is rejected',
  async (t) => {
    const service = await venue(t);
    const gateway = new FixOrderGateway(service, () => T0);
    t.teardown(() => gateway.close());
    const alice = session('alice');
    gateway.attach(alice);
    gateway.receive(alice, 'D', nos(buyB1), 2);
    await service.durable();
    await service.placeOrder('bob', {
      symbol: 'AAPL',
      side: 'sell',
      price: 90,
      orderType: 'limit',
      quantity: 2,
    });
    const orderId = service.orders('alice').data[0]!.id;
    alice.sent.length = 0;
    gateway.receive(alice, 'D', nos([[43, 'Y'], ...buyB1]), 2);
    t.match(tags(alice.sent[0]!), {
      35: '8',
      37: String(orderId),
      11: 'b1',
      150: 'I',
      39: '1',
      14: '2',
      151: '3',
      6: '100',
    });
    gateway.receive(alice, 'D', nos([[97, 'Y'], ...buyB1]), 3);
    t.match(tags(alice.sent[1]!), { 11: 'b1', 150: 'I', 39: '1' }, 'PossResend too');
    gateway.receive(alice, 'D', nos(buyB1), 4);
    t.match(tags(alice.sent[2]!), {
      37: 'NONE',
      11: 'b1',
      150: '8',
      103: '6',
      58: /^EX_DUPLICATE_CLIENT_ORDER_ID/,
    });
    await service.durable();
    t.equal(service.orders('alice').data.length, 1, 'one order only');
    // A resend of a ClOrdID never seen is a new order.
    gateway.receive(alice, 'D', nos([[43, 'Y'], [11, 'b2'], ...buyB1.slice(1)]), 5);
    await service.durable();
    t.equal(service.orders('alice').data.length, 2);
  },
);

t.test(
  'after a restart the ClOrdIDs of the day are known: resend, cancel and reports use them',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ex-fix-gw-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'journal.db');
    const before = await venue(t, file);
    const first = new FixOrderGateway(before, () => T0);
    first.attach(session('alice'));
    first.receive(session('alice'), 'D', nos(buyB1), 2);
    await before.durable();
    first.close();
    await before.close();

    const service = openService(t, file);
    const gateway = new FixOrderGateway(service, () => T0);
    t.teardown(() => gateway.close());
    const alice = session('alice');
    gateway.attach(alice);
    gateway.receive(alice, 'D', nos([[43, 'Y'], ...buyB1]), 2);
    t.match(tags(alice.sent[0]!), { 11: 'b1', 150: 'I', 39: '0', 151: '5' });
    t.equal(service.orders('alice').data.length, 1, 'the resend placed nothing');
    await service.placeOrder('bob', {
      symbol: 'AAPL',
      side: 'sell',
      price: 100,
      orderType: 'limit',
      quantity: 1,
    });
    t.match(tags(alice.sent[1]!), { 11: 'b1', 150: 'F', 14: '1', 151: '4' }, 'a fill reports the ClOrdID');
    gateway.receive(
      alice,
      'F',
      nos([
        [41, 'b1'],
        [11, 'x1'],
        [55, 'AAPL'],
        [54, '1'],
      ]),
      3,
    );
    await service.durable();
    t.match(tags(alice.sent[2]!), { 11: 'x1', 41: 'b1', 150: '4', 39: '4' }, 'canceled by its OrigClOrdID');
  },
);

t.test('an OrderStatusRequest answers the order’s state, or says the order is unknown', async (t) => {
  const service = await venue(t);
  const gateway = new FixOrderGateway(service, () => T0);
  t.teardown(() => gateway.close());
  const alice = session('alice');
  gateway.attach(alice);
  gateway.receive(alice, 'D', nos(buyB1), 2);
  await service.durable();
  await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 100,
    orderType: 'limit',
    quantity: 2,
  });
  const rest = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 90,
    orderType: 'limit',
    quantity: 7,
  });
  const bobs = await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 150,
    orderType: 'limit',
    quantity: 1,
  });
  const orderId = service.orders('alice').data[0]!.id;
  alice.sent.length = 0;
  const ask = (fields: Field[], seq: number) => {
    gateway.receive(alice, 'H', statusRequest(fields), seq);
    return tags(alice.sent.at(-1)!);
  };
  const aapl: Field[] = [
    [55, 'AAPL'],
    [54, '1'],
  ];
  t.match(
    ask([[11, 'b1'], [790, 'q1'], ...aapl], 10),
    {
      35: '8',
      37: String(orderId),
      11: 'b1',
      150: 'I',
      39: '1',
      14: '2',
      151: '3',
      790: 'q1',
    },
    'by ClOrdID, partly filled, the request id echoed',
  );
  t.match(
    ask([[11, 'whatever'], [37, String(orderId)], ...aapl], 11),
    { 37: String(orderId), 150: 'I', 39: '1' },
    'by OrderID',
  );
  t.match(
    ask([[11, String(rest.id)], ...aapl], 12),
    { 37: String(rest.id), 150: 'I', 39: '0', 151: '7' },
    'a REST order by its id',
  );
  const unknown = ask([[11, 'nope'], [790, 'q2'], ...aapl], 13);
  t.match(unknown, {
    35: '8',
    37: 'NONE',
    11: 'nope',
    150: 'I',
    39: '8',
    103: '5',
    790: 'q2',
    58: /^EX_ORDER_NOT_FOUND/,
  });
  t.match(
    ask([[11, 'x'], [37, String(bobs.id)], ...aapl], 14),
    { 37: String(bobs.id), 150: 'I', 39: '8', 103: '5' },
    "another account's order is unknown here",
  );
  const other = ask([[11, 'x'], [37, String(bobs.id)], ...aapl], 15);
  t.same([other[44], other[38], other[14]], ['0', '0', '0'], 'nothing of it is shown');
  gateway.receive(
    alice,
    'H',
    statusRequest([
      [11, 'b1'],
      [55, 'AAPL'],
    ]),
    16,
  );
  t.match(
    tags(alice.sent.at(-1)!),
    { 35: '3', 45: '16', 371: '54', 372: 'H', 373: '1' },
    'Side missing: a session reject',
  );
  gateway.receive(alice, 'H', statusRequest([[11, 'b1'], [37, '1.5'], ...aapl]), 17);
  t.match(tags(alice.sent.at(-1)!), { 35: '3', 371: '37', 373: '6' }, 'a bad OrderID: a session reject');
  t.equal(service.orders('alice').data.length, 2, 'no order placed by asking');
});
