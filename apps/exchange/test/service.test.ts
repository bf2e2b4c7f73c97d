import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import t, { type Test } from 'tap';
import { openSqlite, ProblemError } from '@tessera/kit';
import { fund, orderFlow, send, type FlowOptions } from '../bench/order-flow.ts';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import type { ExchangeEvent } from '../src/core/messages.ts';
import { ExchangeService, orderView } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';

function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ex-service-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'exchange.db');
}

/** A service on a journal file; `now` ticks a millisecond per reading, from T0. */
function open(
  file: string,
  snapshotEvery = 1_000_000,
): { service: ExchangeService; db: DatabaseSync; journal: SqliteJournal } {
  const db = openSqlite(file, { synchronous: 'normal' });
  let now = T0;
  const journal = new SqliteJournal(db);
  const service = ExchangeService.open({ rules: rules(), journal, now: () => now++, snapshotEvery });
  return { service, db, journal };
}

async function refused(promise: Promise<unknown>): Promise<{ code: string; status: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error('not refused');
}

t.test('the trading flow through the facade', async (t) => {
  const { service } = open(tempFile(t));
  const events: ExchangeEvent[] = [];
  service.subscribe((batch) => events.push(...batch.events));
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 500 });
  const sell = await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 101,
    orderType: 'limit',
    quantity: 30,
  });
  t.same(sell, {
    id: 1,
    creationTime: T0 + 2,
    symbol: 'AAPL',
    side: 'sell',
    price: 101,
    orderType: 'limit',
    quantity: 30,
    filledQuantity: 0,
    remainingQuantity: 30,
    status: 'new',
  });
  await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 103,
    orderType: 'limit',
    quantity: 10,
  });
  const buy = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 102,
    orderType: 'limit',
    quantity: 50,
  });
  t.match(buy, { id: 3, status: 'new', filledQuantity: 30, remainingQuantity: 20 });
  t.same(service.l1('AAPL'), { bid: { price: 102, quantity: 20 }, ask: { price: 103, quantity: 10 } });
  t.same(service.l2('AAPL', 5), {
    bids: [{ price: 102, quantity: 20 }],
    asks: [{ price: 103, quantity: 10 }],
  });
  t.same(service.l3('AAPL', 5).bids, [{ price: 102, quantity: 20, orders: [{ id: 3, quantity: 20 }] }]);
  t.same(service.account('alice'), {
    account: 'alice',
    cash: { available: 100_000 - 3_030 - 2_040, reserved: 2_040 },
    shares: { AAPL: { available: 30, reserved: 0 } },
    killSwitch: false,
  });
  t.same(service.executions('alice'), {
    executions: [
      {
        id: 1,
        orderId: 3,
        symbol: 'AAPL',
        side: 'buy',
        price: 101,
        orderType: 'limit',
        quantity: 30,
        timestamp: T0 + 4,
      },
    ],
  });
  t.same(service.executions('bob', { orderId: 2 }), { executions: [] });
  t.same(service.candles('AAPL', 60, T0 - 60_000, T0 + 60_000), {
    candles: [
      { open: 101, close: 101, high: 101, low: 101, volume: 30, timestamp: Math.floor(T0 / 60_000) * 60_000 },
    ],
  });
  t.match(await service.cancelOrder('alice', 3), { status: 'canceled', remainingQuantity: 20 });
  t.same(await refused(service.cancelOrder('alice', 3)), {
    code: 'EX_CANNOT_CANCEL_ALREADY_MATCHED',
    status: 409,
  });
  t.same(await refused(service.cancelOrder('alice', 2)), { code: 'EX_ORDER_NOT_FOUND', status: 404 });
  t.throws(() => service.order('alice', 2), { code: 'EX_ORDER_NOT_FOUND' });
  t.same(
    await refused(
      service.placeOrder('alice', {
        symbol: 'AAPL',
        side: 'buy',
        price: 100,
        orderType: 'market',
        quantity: 1,
      }),
    ),
    { code: 'EX_ORDER_TYPE_UNSUPPORTED', status: 400 },
  );
  t.same(
    await refused(
      service.placeOrder('alice', {
        symbol: 'AAPL',
        side: 'buy',
        price: 1_000,
        orderType: 'limit',
        quantity: 1_000,
      }),
    ),
    { code: 'EX_INSUFFICIENT_FUNDS', status: 422 },
  );
  // Pages of the caller's own orders.
  const page1 = service.orders('bob', { limit: 1 });
  t.same(
    page1.data.map((o) => o.id),
    [1],
  );
  t.same(
    service.orders('bob', { limit: 1, after: page1.next_cursor! }).data.map((o) => o.id),
    [2],
  );
  t.same(
    service.orders('bob', { status: 'completed' }).data.map((o) => o.id),
    [1],
  );
  t.same(service.orders('bob', { limit: 2 }).next_cursor, null);
  t.same(
    (await service.cancelAll('bob')).map((o) => o.id),
    [2],
  );
  const killed = await service.setKillSwitch('bob', true);
  t.same(killed, { killSwitch: true, canceled: [] });
  t.same(
    await refused(
      service.placeOrder('bob', {
        symbol: 'AAPL',
        side: 'sell',
        price: 101,
        orderType: 'limit',
        quantity: 1,
      }),
    ),
    { code: 'EX_KILL_SWITCH', status: 403 },
  );
  // Events arrive after their commit, in sequence order.
  const seqs = events.map((e) => e.seq);
  t.same(
    seqs,
    [...seqs].sort((a, b) => a - b),
  );
  t.ok(events.some((e) => e.type === 'execution'));
  t.throws(() => service.l2('TSLA', 1), { code: 'EX_UNKNOWN_SYMBOL' });
  await service.close();
});

t.test(
  'no events are built while no listener is active; an active one gets those from then on',
  async (t) => {
    const { service } = open(tempFile(t));
    const delivered: ExchangeEvent[][] = [];
    let active = false;
    service.subscribe(
      (batch) => delivered.push([...batch.events]),
      () => active,
    );
    await service.deposit('alice', 100_000);
    await service.deposit('bob', 0, { AAPL: 500 });
    const sell = { symbol: 'AAPL', side: 'sell', price: 101, orderType: 'limit', quantity: 10 } as const;
    const buy = { ...sell, side: 'buy', quantity: 4 } as const;
    await service.placeOrder('bob', sell);
    await service.placeOrder('alice', buy);
    t.same(delivered, [], 'nothing while inactive');
    // The answers that list what was canceled read the events: built for them, listener or not.
    t.same(
      (await service.cancelAll('bob')).map((o) => o.id),
      [1],
    );
    t.same((await service.setKillSwitch('alice', true)).canceled, []);
    await service.setKillSwitch('alice', false);
    delivered.length = 0;

    // Within one batch: a command before the listener turns active, one after.
    service.submitOrder('bob', sell);
    active = true;
    const after = service.submitOrder('alice', buy);
    await service.durable();
    t.equal(delivered.length, 1, 'one batch');
    const seqs = new Set(delivered[0]!.map((e) => e.seq));
    t.same([...seqs], [service.seq], 'only the command sequenced while active');
    t.match(delivered[0], [
      { type: 'order.accepted', order: { id: after.id } },
      { type: 'execution', execution: { orderId: after.id } },
      { type: 'execution' },
      { type: 'book.level' },
      { type: 'order.completed', orderId: after.id },
    ]);
    active = false;
    await service.placeOrder('alice', buy);
    t.equal(delivered.length, 1, 'inactive again: nothing more');
    await service.close();
  },
);

const FLOW: FlowOptions = { seed: 7, accounts: 20, symbols: ['AAPL'], mid: 500 };

async function drive(
  service: ExchangeService,
  next: () => ReturnType<ReturnType<typeof orderFlow>>,
  requests: number,
  batch: number,
): Promise<void> {
  for (let i = 0; i < requests; i++) {
    send(service, next());
    if (i % batch === batch - 1) await service.durable();
  }
  await service.durable();
}

function executionRows(journal: SqliteJournal): { n: number; ids: number; inOrder: boolean } {
  const ids = new Set<number>();
  let n = 0;
  let inOrder = true;
  journal.executions(([id]) => {
    n++;
    inOrder &&= id === n;
    ids.add(id);
  });
  return { n, ids: ids.size, inOrder };
}

t.test('a crash loses only the batch nobody was told about; replay rebuilds the exact state', async (t) => {
  const file = tempFile(t);
  const first = open(file, 97);
  await fund(first.service, FLOW);
  const next = orderFlow(FLOW);
  await drive(first.service, next, 2_000, 50);
  const durableDigest = first.service.digest();
  const durableSeq = first.service.seq;
  // More requests, then the crash before their group commit: the connection goes as a killed
  // process's does, with the batch never written (test/durability has the real kill -9).
  for (let i = 0; i < 30; i++) send(first.service, next());
  t.not(first.service.digest(), durableDigest);
  first.db.close();

  const second = open(file, 97);
  t.equal(second.service.seq, durableSeq);
  t.equal(second.service.digest(), durableDigest, 'books, orders, wallets and risk counters as they were');
  const executed = executionRows(second.journal);
  t.equal(executed.n, executed.ids, 'no execution journaled twice');
  t.ok(executed.inOrder, 'execution ids 1, 2, 3… with no gap');
  // The journaled executions are exactly the state's.
  let inState = 0;
  for (let i = 0; i < FLOW.accounts; i++) inState += second.service.executions(`acct-${i}`).executions.length;
  t.equal(executed.n, inState);
  t.ok(inState > 100, `${inState} executions`);
  // It trades on from there, and a clean restart (snapshot + tail) gives the same state again.
  await drive(second.service, next, 500, 50);
  const digest = second.service.digest();
  await second.service.close();
  const third = open(file, 97);
  t.equal(third.service.digest(), digest);
  t.ok(third.db.prepare('SELECT COUNT(*) AS n FROM snapshot_parts').get()!.n, 'snapshots were taken');
  // Without snapshots, the whole journal replays to the same state.
  third.db.exec('DELETE FROM snapshot_parts');
  const fourth = open(file, 97);
  t.equal(fourth.service.digest(), digest);
  await third.service.close();
});

t.test('the same requests at the same times give the same state', async (t) => {
  const digests: string[] = [];
  for (let run = 0; run < 2; run++) {
    const { service } = open(tempFile(t));
    await fund(service, FLOW);
    await drive(service, orderFlow(FLOW), 1_000, 100);
    digests.push(service.digest());
    await service.close();
  }
  t.equal(digests[0], digests[1]);
});

t.test('a failed commit stops the service until it is reopened', async (t) => {
  const file = tempFile(t);
  const { service, db } = open(file);
  await service.deposit('alice', 1_000);
  const pending = service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 10,
    orderType: 'limit',
    quantity: 1,
  });
  db.close();
  await t.rejects(pending);
  t.ok(service.failed);
  t.same(await refused(service.deposit('alice', 1)), { code: 'EX_JOURNAL_FAILED', status: 503 });
  // Memory holds the order the journal lost: reads are refused as well.
  await t.rejects(service.readsWait() ?? Promise.resolve(), { code: 'EX_JOURNAL_FAILED', status: 503 });
  t.same(open(file).service.account('alice').cash, { available: 1_000, reserved: 0 });
});

t.test('a client order id is journaled with its order: a reopened service still refuses it', async (t) => {
  const file = tempFile(t);
  const first = open(file);
  await first.service.deposit('alice', 10_000);
  const order = { symbol: 'AAPL', side: 'buy', price: 10, orderType: 'limit', quantity: 5 } as const;
  const placed = await first.service.placeOrder('alice', { ...order, clientOrderId: 'c1' });
  await first.service.placeOrder('alice', order);
  await first.service.close();
  first.db.close();
  // Replay from the journal alone (no snapshot was taken).
  const second = open(file);
  t.equal(second.journal.latestSnapshot(), undefined);
  t.equal(second.service.orderByClientId('alice', 'c1')?.id, placed.id);
  t.same(await refused(second.service.placeOrder('alice', { ...order, clientOrderId: 'c1' })), {
    code: 'EX_DUPLICATE_CLIENT_ORDER_ID',
    status: 409,
  });
  t.equal(second.service.orders('alice').data.length, 2, 'no third order');
  await second.service.close();
  second.db.close();
});

t.test('a snapshot that fails does not fail the command that reached it', async (t) => {
  const file = tempFile(t);
  const db = openSqlite(file, { synchronous: 'normal' });
  const journal = new SqliteJournal(db);
  // A state too large for one JSON string is what makes it fail in practice; any failure will do.
  journal.saveSnapshot = () => {
    throw new RangeError('Invalid string length');
  };
  const failures: Array<[number, unknown]> = [];
  let now = T0;
  const service = ExchangeService.open({
    rules: rules(),
    journal,
    now: () => now++,
    snapshotEvery: 2,
    onSnapshotFailed: (seq, error) => failures.push([seq, error]),
  });
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 100_000); // seq 2: a snapshot is due, and fails
  await service.deposit('carol', 100_000);
  t.equal(service.seq, 3, 'every command stands');
  t.same(
    failures.map(([seq, error]) => [seq, (error as Error).name]),
    [[2, 'RangeError']],
    'the failure is reported with its seq',
  );
  const digest = service.digest();
  await service.close();
  const reopened = open(file);
  t.equal(reopened.service.digest(), digest, 'a restart replays the journal to the same state');
  await reopened.service.close();
});

t.test(
  'submitOrder and submitCancel answer the order of their command, open or finished by it',
  async (t) => {
    const { service } = open(tempFile(t));
    await service.deposit('alice', 100_000);
    await service.deposit('bob', 0, { AAPL: 500 });
    const limit = { symbol: 'AAPL', orderType: 'limit', price: 100 } as const;
    const rested = service.submitOrder('bob', { ...limit, side: 'sell', quantity: 10 });
    t.match(rested, { id: 1, status: 'new' });
    const filled = service.submitOrder('alice', { ...limit, side: 'buy', quantity: 10 });
    t.match(filled, { id: 2, status: 'completed', filledQuantity: 10 }, 'finished on arrival');
    t.equal(service.ownOrder('alice', 2), filled, 'the object the reads find');
    const resting = service.submitOrder('alice', { ...limit, side: 'buy', quantity: 5 });
    const canceled = service.submitCancel('alice', resting.id);
    t.equal(canceled, resting);
    t.match(canceled, { id: 3, status: 'canceled' });
    await service.durable();
    t.same(service.order('alice', 2), orderView(filled));
    await service.close();
  },
);
