/**
 * End to end against QuickFIX/J, an independent FIX 4.4 engine, as the client: orders over FIX
 * match orders over REST, cancels, rejects (business and session level), execution reports of
 * the account's REST orders, and sequence numbers kept across a restart of the exchange.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startVenue } from './harness.ts';
import { buildClient, QuickFixClient } from './quickfixj-client.ts';

// Two JVMs start and stop here: on a loaded machine that takes longer than tap's 30 s default.
t.setTimeout(180_000);
const classpath = buildClient();

t.test('FIX and REST orders match; cancel, rejects, REST reports, restart', async (t) => {
  const venue = await startVenue(t);
  const store = mkdtempSync(join(tmpdir(), 'qfj-store-'));
  t.teardown(() => rmSync(store, { recursive: true, force: true }));
  const { service } = venue.current();
  await service.deposit('alice', 1_000_000);
  await service.deposit('bob', 0, { AAPL: 1_000 });

  const fix = new QuickFixClient(classpath, venue.current().acceptor.port, 'CLIENT1', 'pw1', store);
  t.teardown(() => fix.stop());
  await fix.next((r) => r.type === 'LOGON');

  // A FIX buy rests; a REST sell crosses it in part.
  fix.send('order c1 AAPL buy 100 100');
  const placed = await fix.message('8');
  t.match(Object.fromEntries(placed.tags), {
    11: 'c1',
    150: '0',
    39: '0',
    55: 'AAPL',
    54: '1',
    38: '100',
    44: '100',
    151: '100',
    14: '0',
  });
  const orderId = Number(placed.tags.get(37));
  const sold = await venue.current().rest('bob', 'POST', '/v1/order', {
    symbol: 'AAPL',
    side: 'sell',
    price: 99,
    orderType: 'limit',
    quantity: 60,
  });
  t.equal(sold.status, 200, JSON.stringify(sold.body));
  t.match(sold.body, { status: 'completed', filledQuantity: 60 });
  const fill = await fix.message('8');
  t.match(Object.fromEntries(fill.tags), {
    37: String(orderId),
    11: 'c1',
    150: 'F',
    39: '1',
    32: '60',
    31: '100',
    14: '60',
    151: '40',
    6: '100',
  });
  t.match(
    (await venue.current().rest('bob', 'GET', '/execution?symbol=AAPL')).body,
    { executions: [{ orderId: sold.body.id, side: 'sell', price: 100, orderType: 'limit', quantity: 60 }] },
    'the REST seller sees its side of the trade at the resting FIX price',
  );

  // Its state on request (OrderStatusRequest), by ClOrdID and by OrderID; an unknown order.
  fix.send('status c1 AAPL buy q1');
  t.match(Object.fromEntries((await fix.message('8')).tags), {
    37: String(orderId),
    11: 'c1',
    150: 'I',
    39: '1',
    14: '60',
    151: '40',
    790: 'q1',
  });
  fix.send(`status any AAPL buy q2 ${orderId}`);
  t.match(Object.fromEntries((await fix.message('8')).tags), { 37: String(orderId), 150: 'I', 790: 'q2' });
  fix.send('status nope AAPL buy q3');
  t.match(Object.fromEntries((await fix.message('8')).tags), {
    11: 'nope',
    150: 'I',
    39: '8',
    103: '5',
    790: 'q3',
  });

  // Cancel the rest of it over FIX.
  fix.send('cancel c2 c1 AAPL buy');
  const canceled = await fix.message('8');
  t.match(Object.fromEntries(canceled.tags), {
    37: String(orderId),
    11: 'c2',
    41: 'c1',
    150: '4',
    39: '4',
    14: '60',
    151: '0',
  });
  t.match((await venue.current().rest('alice', 'GET', `/v1/order/${orderId}`)).body, {
    status: 'canceled',
    filledQuantity: 60,
  });

  // A cancel of what is no longer open: OrderCancelReject.
  fix.send(`cancel c3 ${orderId} AAPL buy`);
  const tooLate = await fix.message('9');
  t.match(Object.fromEntries(tooLate.tags), {
    11: 'c3',
    41: String(orderId),
    434: '1',
    102: '0',
    58: /EX_CANNOT_CANCEL_ALREADY_MATCHED/,
  });

  // Business rejects name the reason; a missing required tag is a session-level Reject.
  fix.send('order m1 AAPL buy 100 10 1');
  t.match(Object.fromEntries((await fix.message('8')).tags), {
    11: 'm1',
    150: '8',
    39: '8',
    103: '11',
    58: /only limit orders/,
  });
  fix.send('order big AAPL buy 1000 5000');
  t.match(Object.fromEntries((await fix.message('8')).tags), {
    11: 'big',
    150: '8',
    39: '8',
    103: '3',
    58: /^EX_INSUFFICIENT_FUNDS/,
  });
  fix.send('bare b1 AAPL buy 100 10');
  t.match(Object.fromEntries((await fix.message('3')).tags), { 371: '60', 372: 'D', 373: '1' });

  // An order of the same account placed over REST reports over FIX, its id as ClOrdID.
  const rest = await venue.current().rest('alice', 'POST', '/v1/order', {
    symbol: 'AAPL',
    side: 'buy',
    price: 90,
    orderType: 'limit',
    quantity: 5,
  });
  t.equal(rest.status, 200);
  t.match(Object.fromEntries((await fix.message('8')).tags), {
    37: String(rest.body.id),
    11: String(rest.body.id),
    150: '0',
  });

  await fix.logout();
  const seqBefore = service.seq;

  // Restart the exchange: the QuickFIX/J store and ours go on from the same numbers.
  const after = await venue.restart();
  t.equal(after.service.seq, seqBefore, 'the journal replayed');
  const again = new QuickFixClient(classpath, after.acceptor.port, 'CLIENT1', 'pw1', store);
  t.teardown(() => again.stop());
  const logon = await again.next((r) => r.type === 'A' || r.type === '5');
  t.equal(logon.type, 'A', `logged on again: ${logon.line}`);
  t.ok(Number(logon.tags.get(34)) > 5, `our Logon goes on from the stored number (34=${logon.tags.get(34)})`);
  await again.next((r) => r.type === 'LOGON');
  const restId = String(rest.body.id);
  again.send(`cancel c4 ${restId} AAPL buy`);
  t.match(Object.fromEntries((await again.message('8')).tags), {
    37: restId,
    150: '4',
    39: '4',
  });
  await again.logout();
  t.notOk(
    again.lines.some((l) => l.includes('35=3') || l.includes('MsgSeqNum too low')),
    'no reject or sequence complaint',
  );
});
