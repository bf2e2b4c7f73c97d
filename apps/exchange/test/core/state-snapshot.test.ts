import t from 'tap';
import {
  restoreParts,
  restoreState,
  snapshotParts,
  snapshotState,
  stateDigest,
} from '../../src/core/state-snapshot.ts';
import { Desk, rules } from './exchange-rules.ts';

function trading(): Desk {
  const desk = new Desk();
  desk.deposit('alice', 100_000);
  desk.deposit('bob', 0, { AAPL: 100 });
  desk.order('bob', { side: 'sell', price: 10, quantity: 30 });
  desk.order('alice', { side: 'buy', price: 12, quantity: 50 });
  desk.order('bob', { side: 'sell', price: 15, quantity: 5, clientOrderId: 'b-3' });
  return desk;
}

t.test('a snapshot restores to the same state and continues the same way', async (t) => {
  const desk = trading();
  const snapshot = JSON.parse(JSON.stringify(snapshotState(desk.manager))) as ReturnType<
    typeof snapshotState
  >;
  const restored = restoreState(rules(), snapshot);
  t.equal(stateDigest(restored), stateDigest(desk.manager));
  t.equal(restored.seq, desk.manager.seq);
  t.equal(restored.orderByClientId('bob', 'b-3', desk.at)?.id, 3, "today's client order ids come back");
  // The same next command on both gives the same state again (ids, executions, bounds).
  const command = {
    v: 1 as const,
    type: 'order.new' as const,
    at: desk.at,
    account: 'bob',
    orderId: restored.nextOrderId,
    symbol: 'AAPL',
    side: 'sell' as const,
    price: 12,
    quantity: 20,
  };
  desk.manager.apply(desk.manager.seq + 1, command);
  restored.apply(restored.seq + 1, command);
  t.equal(stateDigest(restored), stateDigest(desk.manager));
});

t.test('the digest sees every part of the state', async (t) => {
  const base = stateDigest(trading().manager);
  const changed = [
    (d: Desk) => (d.manager.account('alice')!.balances.cash += 1),
    (d: Desk) => (d.manager.account('bob')!.exposure.get('AAPL')!.filledToday += 1),
    (d: Desk) => (d.manager.orders.get(2)!.status = 'canceled'),
    (d: Desk) => (d.manager.account('alice')!.killed = true),
    (d: Desk) => d.manager.tapes.get('AAPL')!.record(1, 1, 1),
    (d: Desk) => d.cancel('alice', 2),
    (d: Desk) => d.manager.account('bob')!.clientOrderIds.record(d.manager.clock.at(d.at).day, 'x', 9),
    // Executions left the state: their fold stands for them.
    (d: Desk) => d.manager.retired.add({ ...d.manager.orders.get(2)!, status: 'canceled' }),
  ];
  for (const [i, change] of changed.entries()) {
    const desk = trading();
    change(desk);
    t.not(stateDigest(desk.manager), base, `change ${i}`);
  }
  const { accounts, ...older } = snapshotState(trading().manager);
  const withoutIds = accounts.map(({ clientOrderIds: _ids, ...account }) => account);
  t.equal(
    restoreState(rules(), { ...older, accounts: withoutIds }).account('bob')!.clientOrderIds.size,
    0,
    'a snapshot from before client order ids restores with none',
  );
  t.throws(
    () => restoreState(rules(), { ...snapshotState(trading().manager), v: 2 as never }),
    /unknown snapshot version/,
  );
});

t.test('a snapshot in parts restores to the same state, however small the parts', async (t) => {
  const desk = trading();
  for (let i = 0; i < 12; i++) desk.order('bob', { side: 'sell', price: 12, quantity: 1 });
  const digest = stateDigest(desk.manager);
  for (const rows of [1, 2, 5, 10_000]) {
    const parts = [...snapshotParts(desk.manager, rows)];
    const restored = restoreParts(rules(), parts);
    t.equal(stateDigest(restored), digest, `${rows} rows a part: ${parts.length} parts`);
    t.equal(restored.orderByClientId('bob', 'b-3', desk.at)?.id, 3);
  }
  const orders = desk.manager.orders.size;
  const tiny = [...snapshotParts(desk.manager, 1)];
  t.ok(tiny.filter((p) => p.startsWith('{"orders"')).length === orders, 'one order a part');
  t.notOk(
    tiny.some((p) => p.includes('"executions"')),
    'executions are not in the snapshot (the journal stores them)',
  );
  t.ok(desk.executions.length > 0 && tiny[0]!.includes('"retired"'), 'their fold is');
});

t.test('a snapshot stored whole (before parts) still restores; a bad one is refused', async (t) => {
  const desk = trading();
  const whole = JSON.stringify(snapshotState(desk.manager));
  t.equal(stateDigest(restoreParts(rules(), [whole])), stateDigest(desk.manager));
  t.throws(() => restoreParts(rules(), []), /no parts/);
  t.throws(() => restoreParts(rules(), ['{"v":3}']), /unknown snapshot version 3/);
  const [head, ...rest] = [...snapshotParts(desk.manager, 1)];
  // An older snapshot's executions (in parts after their account's) leave the state on restore.
  const bob = rest.findIndex((p) => p.startsWith('{"account":{"id":"bob"'));
  const stray = { ...desk.executions[0]!, id: 1_000, account: 'bob' };
  const older = [head!, ...rest.slice(0, bob + 1), `{"executions":["bob",[${JSON.stringify(stray)}]]}`];
  const retired: unknown[] = [];
  const restored = restoreParts(rules(), [...older, ...rest.slice(bob + 1)], {
    order: (order) => retired.push(order),
    execution: (execution) => retired.push(execution),
  });
  t.same(retired, [stray], "an older snapshot's executions go to `retiring`");
  t.not(stateDigest(restored), stateDigest(desk.manager), 'and into the fold');
  t.throws(
    () => restoreParts(rules(), [head!, `{"executions":["nobody",[]]}`]),
    /executions of unknown account/,
  );
  t.throws(() => restoreParts(rules(), [head!, '{"ledger":[]}']), /unknown part/);
});
