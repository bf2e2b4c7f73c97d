/**
 * Finished orders and executions live in the journal's store, not in memory: every read must
 * answer what the whole day's history in memory answered (a reference computed here from the
 * events, the way the old in-memory reads did), before and after its batch is durable, after a
 * restart from a snapshot and after a replay of the whole journal. Those finished since the last
 * snapshot are held in memory, the others stored by the snapshots: the pages cross both.
 */
import t, { type Test } from 'tap';
import { openSqlite, ProblemError } from '@tessera/kit';
import { fund, orderFlow, send } from '../bench/order-flow.ts';
import { executionView } from '../src/core/views.ts';
import type { ExchangeService } from '../src/service.ts';
import { T0 } from './core/exchange-rules.ts';
import {
  ACCOUNTS,
  flow,
  open,
  reads,
  record,
  referencePage,
  STATUSES,
  tempFile,
  type History,
} from './finished-reads-fixtures.ts';

/** The same reads computed the old way: from the whole history. */
function expected(service: ExchangeService, history: History, t: Test): void {
  for (const account of ACCOUNTS) {
    const ids = history.ids.get(account) ?? [];
    const all = ids.map((id) => service.order(account, id));
    for (const status of STATUSES) {
      for (const symbol of [undefined, 'MSFT']) {
        for (const limit of [1, 2, 5, 1000]) {
          for (const after of [undefined, ids[2] ?? 0, ids[ids.length - 2] ?? 0]) {
            const query = {
              limit,
              ...(status === undefined ? {} : { status }),
              ...(symbol === undefined ? {} : { symbol }),
              ...(after === undefined ? {} : { after }),
            };
            const got = JSON.stringify(service.orders(account, query));
            const want = JSON.stringify(referencePage(all, status, symbol, after, limit));
            if (got !== want) t.equal(got, want, `${account} ${JSON.stringify(query)}`);
          }
        }
      }
    }
    const mine = history.executions.filter((e) => e.account === account).map(executionView);
    t.equal(
      JSON.stringify(service.executions(account).executions),
      JSON.stringify(mine),
      `${account} executions`,
    );
  }
}

t.test('finished orders and executions read as before, across a snapshot and restarts', async (t) => {
  const file = tempFile(t);
  const service = open(file, 97);
  const history = record(service);
  await fund(service, flow);
  const next = orderFlow(flow);
  for (let turn = 0; turn < 30; turn++) {
    for (let i = 0; i < 20; i++) send(service, next());
    // The history as the events told it so far (this turn's come with its commit).
    const known: History = { ids: new Map(history.ids), executions: [...history.executions] };
    const unwritten = reads(service, known);
    await service.durable();
    t.equal(reads(service, known), unwritten, `turn ${turn}: the same before and after the commit`);
  }
  const stored = openSqlite(file);
  const rows = (table: string) =>
    (stored.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const storedExecutions = rows('executions');
  t.ok(
    storedExecutions > 0 && storedExecutions < history.executions.length,
    `${storedExecutions} of ${history.executions.length} executions stored by the snapshots, the rest held`,
  );
  t.ok(rows('finished_orders') > 0, 'finished orders stored by the snapshots');
  stored.close();
  const finished = service.orders(ACCOUNTS[0]!, { status: 'completed', limit: 1000 }).data.length;
  t.ok(finished > 10, `${finished} completed orders of one account`);
  t.ok(history.executions.length > 100, `${history.executions.length} executions`);
  expected(service, history, t);
  t.pass('pages, orders and executions equal the in-memory reference');
  const before = reads(service, history);
  const digest = service.digest();
  await service.close();

  const restarted = open(file, 97);
  t.equal(restarted.digest(), digest, 'the digest after a restart from the snapshot');
  t.equal(reads(restarted, history), before, 'every read after a restart from the snapshot');
  await restarted.close();

  const db = openSqlite(file);
  db.exec('DELETE FROM snapshot_parts');
  db.close();
  const replayed = open(file, 97);
  t.equal(replayed.digest(), digest, 'the digest after a replay of the whole journal');
  t.equal(reads(replayed, history), before, 'every read after a replay of the whole journal');
  await replayed.close();
});

async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ProblemError) return error.code;
    throw error;
  }
  return 'none';
}

t.test('a finished order is still found by id and ClOrdID after a restart', async (t) => {
  const file = tempFile(t);
  const service = open(file, 4);
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  const sell = await service.placeOrder('bob', {
    symbol: 'AAPL',
    side: 'sell',
    price: 10,
    orderType: 'limit',
    quantity: 5,
  });
  const buy = await service.placeOrder('alice', {
    symbol: 'AAPL',
    side: 'buy',
    price: 10,
    orderType: 'limit',
    quantity: 5,
    clientOrderId: 'c-1',
  });
  t.equal(buy.status, 'completed', 'filled at once: answered from the store');
  const sellDone = service.order('bob', sell.id);
  await service.close();

  const restarted = open(file, 4, T0 + 1_000);
  t.same(restarted.order('bob', sell.id), sellDone);
  t.same(restarted.order('alice', buy.id), buy);
  t.same(restarted.orderByClientId('alice', 'c-1'), { ...buy, account: 'alice', clientOrderId: 'c-1' });
  t.equal(
    await refusal(() =>
      restarted.placeOrder('alice', {
        symbol: 'AAPL',
        side: 'buy',
        price: 9,
        orderType: 'limit',
        quantity: 1,
        clientOrderId: 'c-1',
      }),
    ),
    'EX_DUPLICATE_CLIENT_ORDER_ID',
    "a finished order's ClOrdID is still taken today",
  );
  t.equal(await refusal(() => restarted.cancelOrder('alice', buy.id)), 'EX_CANNOT_CANCEL_ALREADY_MATCHED');
  t.equal(await refusal(() => restarted.cancelOrder('bob', buy.id)), 'EX_ORDER_NOT_FOUND');
  t.equal(await refusal(() => restarted.order('bob', buy.id)), 'EX_ORDER_NOT_FOUND');
  t.same(
    restarted.executions('alice').executions.map((e) => [e.orderId, e.quantity]),
    [[buy.id, 5]],
  );
  await restarted.close();
});
