// FIX shows only durable state. With the journal's writer thread the next batch is applied while one
// is written, so what a session is sent (ExecutionReports, status answers, cancel rejects) must not
// be read from the state in memory at the time it goes: the tests hold a batch's commit and apply
// the next one meanwhile.
import { bodyText } from '../../src/fix/body-bytes.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';
import t from 'tap';
import { decode, encode, type Field } from '../../src/fix/codec.ts';
import { FixOrderGateway, type OrderSession } from '../../src/fix/order-gateway.ts';
import type { ExchangeService, OrderInput } from '../../src/service.ts';
import { T0 } from '../core/exchange-rules.ts';
import { heldVenue } from './held-journal.ts';

/** A logged-on session that keeps what it was sent, each message as a tag → value record. */
function session(account: string) {
  const sent: Array<Record<string, string>> = [];
  const fields = (text: string) =>
    Object.fromEntries(
      text.split('\x01').flatMap((f) => (f === '' ? [] : [f.split('=') as [string, string]])),
    );
  const s: OrderSession & { sent: typeof sent } = {
    account,
    sent,
    sendApp: (type, body) => sent.push({ 35: type, ...fields(bodyText(body)) }),
    reject: (refSeq, refMsgType, reason, text) =>
      sent.push({ 35: '3', 45: String(refSeq), 372: refMsgType, 373: String(reason), 58: text }),
  };
  return s;
}

function message(type: string, fields: Field[]) {
  const m = decode(encode([[35, type], [60, '20261123-15:00:00.000'], ...fields]));
  if ('garbled' in m) throw new Error(m.garbled);
  return m;
}

const order = (side: 'buy' | 'sell', quantity: number): OrderInput => ({
  symbol: 'AAPL',
  side,
  price: 100,
  orderType: 'limit',
  quantity,
});

/** Alice's REST buy of 10 rests (durable), then she logs on over FIX. */
async function restingRestBuy(service: ExchangeService) {
  const resting = await service.placeOrder('alice', order('buy', 10));
  const gateway = new FixOrderGateway(service, () => T0);
  const alice = session('alice');
  gateway.attach(alice);
  return { resting, gateway, alice };
}

const statusOf = (clOrdId: string): Field[] => [
  [11, clOrdId],
  [55, 'AAPL'],
  [54, '1'],
];

t.test('fills of a REST order in two batches, the second applied while the first is written', async (t) => {
  const { service, sink } = await heldVenue(t);
  const { resting, gateway, alice } = await restingRestBuy(service);
  t.teardown(() => gateway.close());
  sink.hold();
  // Two fills in the first batch: the order is first met at the first of them.
  service.submitOrder('bob', order('sell', 3));
  service.submitOrder('bob', order('sell', 2));
  await nextTurn();
  t.equal(sink.waiting, 1, 'the first batch is being written');
  service.submitOrder('bob', order('sell', 5));
  t.equal(service.order('alice', resting.id).filledQuantity, 10, 'the second is applied meanwhile');
  await nextTurn();
  t.same(alice.sent, [], 'nothing before it is durable');
  sink.release();
  await nextTurn();
  t.match(alice.sent, [
    { 35: '8', 37: String(resting.id), 150: 'F', 32: '3', 14: '3', 151: '7', 39: '1' },
    { 150: 'F', 32: '2', 14: '5', 151: '5', 39: '1' },
  ]);
  t.equal(alice.sent.length, 2, 'the second batch is not durable yet');
  sink.release();
  await nextTurn();
  t.match(alice.sent[2], { 150: 'F', 32: '5', 14: '10', 151: '0', 39: '2' });
  t.equal(alice.sent.length, 3);
});

t.test('a cancel while a fill of the order is written counts that fill once', async (t) => {
  const { service, sink } = await heldVenue(t);
  const { resting, gateway, alice } = await restingRestBuy(service);
  t.teardown(() => gateway.close());
  sink.hold();
  service.submitOrder('bob', order('sell', 3));
  await nextTurn();
  gateway.receive(
    alice,
    'F',
    message('F', [[41, String(resting.id)], [11, 'x1'], ...statusOf(String(resting.id)).slice(1)]),
    2,
  );
  t.same(alice.sent, [], 'nothing before it is durable');
  sink.release();
  await nextTurn();
  sink.release();
  await nextTurn();
  t.match(alice.sent, [
    { 150: 'F', 32: '3', 14: '3', 151: '7', 39: '1' },
    { 150: '4', 11: 'x1', 41: String(resting.id), 14: '3', 151: '0', 39: '4' },
  ]);
  t.equal(alice.sent.length, 2);
});

t.test('a cancel refused for a fill being written is answered after that fill’s report', async (t) => {
  const { service, sink } = await heldVenue(t);
  const { resting, gateway, alice } = await restingRestBuy(service);
  t.teardown(() => gateway.close());
  sink.hold();
  service.submitOrder('bob', order('sell', 10));
  await nextTurn();
  gateway.receive(
    alice,
    'F',
    message('F', [[41, String(resting.id)], [11, 'x1'], ...statusOf(String(resting.id)).slice(1)]),
    2,
  );
  t.same(alice.sent, [], 'the refusal shows the fill: not before it is durable');
  sink.release();
  await nextTurn();
  t.match(alice.sent, [
    { 35: '8', 150: 'F', 14: '10', 39: '2' },
    { 35: '9', 11: 'x1', 41: String(resting.id), 39: '2', 102: '0', 58: /^EX_CANNOT_CANCEL_ALREADY_MATCHED/ },
  ]);
});

t.test(
  'an OrderStatusRequest is answered once what it shows is durable, after the reports before it',
  async (t) => {
    const { service, sink } = await heldVenue(t);
    const gateway = new FixOrderGateway(service, () => T0);
    t.teardown(() => gateway.close());
    const alice = session('alice');
    gateway.attach(alice);
    gateway.receive(alice, 'D', message('D', [[40, '2'], [38, '5'], [44, '100'], ...statusOf('b1')]), 2);
    await service.durable();
    t.match(alice.sent, [{ 150: '0', 11: 'b1' }]);
    sink.hold();
    service.submitOrder('bob', order('sell', 2));
    await nextTurn();
    service.submitOrder('bob', order('sell', 1));
    gateway.receive(alice, 'H', message('H', [[790, 'q1'], ...statusOf('b1')]), 3);
    t.equal(alice.sent.length, 1, 'not answered while the fills are written');
    sink.release();
    await nextTurn();
    t.match(alice.sent.slice(1), [{ 150: 'F', 14: '2' }], 'the first fill is durable: its report only');
    sink.release();
    await nextTurn();
    t.match(alice.sent.slice(1), [
      { 150: 'F', 14: '2' },
      { 150: 'F', 32: '1', 14: '3', 151: '2' },
      { 35: '8', 150: 'I', 11: 'b1', 790: 'q1', 39: '1', 14: '3', 151: '2' },
    ]);
    t.equal(alice.sent.length, 4);
    gateway.receive(alice, 'H', message('H', [[790, 'q2'], ...statusOf('b1')]), 4);
    t.match(alice.sent[4], { 150: 'I', 790: 'q2', 14: '3' }, 'with nothing pending, at once');
  },
);

t.test('a status request waiting for a commit that fails is refused with EX_JOURNAL_FAILED', async (t) => {
  const { service, sink } = await heldVenue(t);
  const { resting, gateway, alice } = await restingRestBuy(service);
  t.teardown(() => gateway.close());
  sink.hold();
  service.submitOrder('bob', order('sell', 4));
  await nextTurn();
  gateway.receive(alice, 'H', message('H', statusOf(String(resting.id))), 2);
  t.same(alice.sent, []);
  sink.fail();
  await nextTurn();
  t.ok(service.failed);
  const refused = { 35: 'j', 372: 'H', 380: '4', 58: /^EX_JOURNAL_FAILED/ };
  t.match(alice.sent, [{ ...refused, 45: '2' }], 'no report of the lost fill, the request refused');
  gateway.receive(alice, 'H', message('H', statusOf(String(resting.id))), 3);
  await nextTurn();
  t.match(alice.sent[1], { ...refused, 45: '3' }, 'and every later one');
  t.equal(alice.sent.length, 2);
});
