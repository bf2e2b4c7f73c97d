/**
 * A new order's ClOrdID is checked against the finished orders' from memory (no store query per
 * new order), and a reused one is still refused: in the same process, after a restart that replays
 * the whole journal, after a restart from a snapshot (the store answers), and past the bound.
 */
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import { FinishedClientIds } from '../src/core/finished-client-ids.ts';
import type { Order } from '../src/core/messages.ts';
import type { FinishedOrders } from '../src/core/leaving-state.ts';
import { ExchangeService } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';
import { tempFile } from './finished-reads-fixtures.ts';

/** A service over its own journal, counting the store's ClOrdID queries. */
function counted(
  file: string,
  snapshotEvery: number,
  start = T0,
): { service: ExchangeService; queries: () => number } {
  let now = start;
  let queries = 0;
  const journal = new SqliteJournal(openSqlite(file, { synchronous: 'normal' }));
  const query = journal.finishedByClientId.bind(journal);
  journal.finishedByClientId = (account, clientOrderId) => {
    queries++;
    return query(account, clientOrderId);
  };
  const service = ExchangeService.open({ rules: rules(), journal, now: () => now++, snapshotEvery });
  return { service, queries: () => queries };
}

const trade = { symbol: 'AAPL', price: 10, orderType: 'limit', quantity: 5 } as const;
const duplicate = { code: 'EX_DUPLICATE_CLIENT_ORDER_ID' };

/** alice's c-1 fills at once (finished: the store's), her c-2 rests. */
async function filledAndResting(service: ExchangeService): Promise<void> {
  await service.deposit('alice', 100_000);
  await service.deposit('bob', 0, { AAPL: 100 });
  await service.placeOrder('bob', { ...trade, side: 'sell' });
  const filled = await service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-1' });
  if (filled.status !== 'completed') throw new Error(`c-1 is ${filled.status}`);
  await service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-2' });
}

t.test(
  'without a snapshot: new ClOrdIDs from memory, a reused one refused, before and after restart',
  async (t) => {
    const file = tempFile(t);
    const first = counted(file, 1_000_000);
    await filledAndResting(first.service);
    t.equal(first.queries(), 0, 'new ClOrdIDs: the store is not asked');
    await t.rejects(
      first.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-1' }),
      duplicate,
    );
    t.ok(first.queries() > 0, 'a known one: the store gives the order');
    await first.service.durable();
    await first.service.close();

    const after = counted(file, 1_000_000);
    await t.rejects(
      after.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-1' }),
      duplicate,
    );
    await t.rejects(
      after.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-2' }),
      duplicate,
    );
    const asked = after.queries();
    await after.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-3' });
    t.equal(after.queries(), asked, 'the replay filled the memory: a new ClOrdID is not asked');
    t.equal(after.service.orderByClientId('alice', 'c-1')?.status, 'completed', 'found by ClOrdID');
    await after.service.close();
  },
);

t.test(
  'after a restart from a snapshot: today’s ids loaded from the store, a reused one refused',
  async (t) => {
    const file = tempFile(t);
    const first = counted(file, 4);
    await filledAndResting(first.service);
    while (first.service.seq % 4 !== 0) await first.service.deposit('carol', 1); // up to a snapshot
    // After the snapshot: c-4 fills (replayed at the restart, not in the store).
    await first.service.placeOrder('bob', { ...trade, side: 'sell' });
    await first.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-4' });
    await first.service.durable();
    await first.service.close();

    const after = counted(file, 1_000_000);
    await after.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-3' });
    t.equal(after.queries(), 0, 'complete from the start: a new ClOrdID does not ask the store');
    for (const reused of ['c-1', 'c-2', 'c-4'])
      await t.rejects(
        after.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: reused }),
        duplicate,
        `${reused} refused`,
      );
    t.ok(after.queries() > 0, 'a known one: the store gives the order');
    t.equal(after.service.orderByClientId('alice', 'c-1')?.status, 'completed', 'found by ClOrdID');
    await after.service.close();

    // The next day: yesterday's ids are free again (FIX: unique per trading day), still no query.
    const tomorrow = counted(file, 1_000_000, T0 + 86_400_000);
    await tomorrow.service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-1' });
    t.equal(tomorrow.queries(), 0, 'a new day: nothing of it finished, nothing asked');
    await tomorrow.service.close();
  },
);

t.test('the memory: a miss answered while complete, the store otherwise and past the bound', async (t) => {
  const day = (at: number) => `2026-11-${String(23 + Math.floor(at / 100)).padStart(2, '0')}`;
  const order = (id: number, clientOrderId: string, creationTime = 0): Order =>
    ({ id, account: 'alice', clientOrderId, creationTime }) as unknown as Order;
  const asked: string[] = [];
  const store: FinishedOrders = {
    order: () => undefined,
    byClientId: (_account, clientOrderId) => {
      asked.push(clientOrderId);
      return clientOrderId === 'a' ? [order(1, 'a')] : [];
    },
  };
  const ids = new FinishedClientIds(store, day, true, 2);
  ids.finished(order(1, 'a'));
  t.same(ids.byClientId('alice', 'b'), [], 'a miss');
  t.same(ids.byClientId('bob', 'a'), [], 'another account’s id is a miss');
  t.same(asked, [], 'misses are not asked');
  t.equal(ids.byClientId('alice', 'a')[0]?.id, 1, 'a hit: the store gives the order');
  ids.finished(order(2, 'b'));
  ids.finished(order(3, 'c'));
  t.notOk(ids.complete, 'past the bound the memory is let go');
  ids.byClientId('alice', 'z');
  t.same(asked, ['a', 'z'], 'then every question goes to the store');
  ids.finished(order(4, 'd', 100));
  t.ok(ids.complete, 'the next day it is complete again');
  ids.finished(order(5, 'e', 50));
  ids.byClientId('alice', 'e');
  ids.byClientId('alice', 'd');
  t.same(asked, ['a', 'z', 'd'], 'an order of the day before is not kept; today’s is');

  const restarted = new FinishedClientIds(store, day, false);
  restarted.finished(order(6, 'f'));
  restarted.byClientId('alice', 'y');
  t.equal(asked.at(-1), 'y', 'from a snapshot, before its load: the store answers');
  restarted.load('2026-11-23', [['alice', 'g']]);
  t.ok(restarted.complete);
  restarted.byClientId('alice', 'x');
  restarted.byClientId('alice', 'f');
  restarted.byClientId('alice', 'g');
  t.same(
    asked.slice(-3),
    ['y', 'f', 'g'],
    'loaded: the replay’s and the store’s ids known, a miss not asked',
  );
});
