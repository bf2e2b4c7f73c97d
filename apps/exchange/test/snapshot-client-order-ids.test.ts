/**
 * A snapshot from before the bounded state lists every ClOrdID of the day, finished orders'
 * included; after the upgrade those orders are in the store, and are still found by ClOrdID
 * (FIX order status, cancel by OrigClOrdID) and still refuse a reused one.
 */
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import type { Order } from '../src/core/messages.ts';
import { T0 } from './core/exchange-rules.ts';
import { aliceAndBob, open, tempFile } from './finished-reads-fixtures.ts';

interface AccountPart {
  readonly account: { readonly id: string; readonly clientOrderIds: [string, Array<[string, number]>] };
}

t.test("a finished order listed in an old snapshot's ClOrdIDs is found by it", async (t) => {
  const file = tempFile(t);
  const service = await aliceAndBob(file);
  const trade = { symbol: 'AAPL', price: 10, orderType: 'limit', quantity: 5 } as const;
  await service.placeOrder('bob', { ...trade, side: 'sell' });
  const buy = await service.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-1' });
  while (service.seq % 4 !== 0) await service.deposit('carol', 1); // up to a snapshot
  await service.durable();
  t.equal(service.orderByClientId('alice', 'c-1')?.id, buy.id, 'before');
  await service.close();

  // As the old format wrote it: the day's ClOrdIDs hold the finished orders' too.
  const db = openSqlite(file);
  const { seq } = db.prepare('SELECT MAX(seq) AS seq FROM snapshot_parts').get() as { seq: number };
  const parts = db.prepare('SELECT part, body FROM snapshot_parts WHERE seq = ?').all(seq) as Array<{
    part: number;
    body: string;
  }>;
  const finished = (db.prepare('SELECT body FROM finished_orders').all() as Array<{ body: string }>).map(
    (row) => JSON.parse(row.body) as Order,
  );
  let listed = 0;
  for (const { part, body } of parts) {
    const parsed = JSON.parse(body) as Partial<AccountPart>;
    if (parsed.account === undefined) continue;
    for (const order of finished) {
      if (order.account !== parsed.account.id || order.clientOrderId === undefined) continue;
      parsed.account.clientOrderIds[1].push([order.clientOrderId, order.id]);
      listed++;
    }
    db.prepare('UPDATE snapshot_parts SET body = ? WHERE seq = ? AND part = ?').run(
      JSON.stringify(parsed),
      seq,
      part,
    );
  }
  db.close();
  t.equal(listed, 1, "the filled order's ClOrdID listed as the old format did");

  const restarted = open(file, 4, T0 + 1_000);
  t.equal(restarted.orderByClientId('alice', 'c-1')?.id, buy.id, 'after the restart: found by its ClOrdID');
  await t.rejects(
    restarted.placeOrder('alice', { ...trade, side: 'buy', clientOrderId: 'c-1' }),
    { code: 'EX_DUPLICATE_CLIENT_ORDER_ID' },
    'a reused ClOrdID is still refused',
  );
  await restarted.close();
});
