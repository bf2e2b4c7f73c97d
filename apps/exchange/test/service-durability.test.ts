import t from 'tap';
import { openSqlite } from '@tessera/kit';
import { fund, orderFlow, send, type FlowOptions } from '../bench/order-flow.ts';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import { ExchangeService } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';
import { open, refused, tempFile } from './service-fixtures.ts';

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
