/**
 * journal.db keeps two snapshots in case the newest cannot be read. A restart from the older one
 * replays orders and executions the newest already stored: its next snapshot stores them again,
 * and must commit (once failed on the tables' unique ids, the journal stopped for good).
 */
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import { T0 } from './core/exchange-rules.ts';
import { aliceAndBob, open, tempFile } from './finished-reads-fixtures.ts';

t.test('a restart from the older snapshot stores what the newest stored, and goes on', async (t) => {
  const file = tempFile(t);
  const service = await aliceAndBob(file);
  const trade = { symbol: 'AAPL', price: 10, orderType: 'limit', quantity: 1 } as const;
  for (let i = 0; i < 6; i++) {
    await service.placeOrder('bob', { ...trade, side: 'sell' });
    await service.placeOrder('alice', { ...trade, side: 'buy' });
  }
  await service.durable();
  const executions = service.executions('alice', {});
  await service.close();
  const db = openSqlite(file);
  const stored = db.prepare('SELECT COUNT(*) AS n FROM finished_orders').get() as { n: number };
  t.ok(stored.n > 0, 'the newest snapshot stored finished orders');
  db.exec('DELETE FROM snapshot_parts WHERE seq = (SELECT MAX(seq) FROM snapshot_parts)');
  db.close();
  const again = open(file, 4, T0 + 1_000);
  t.same(again.executions('alice', {}), executions, 'the same executions, once each');
  for (let i = 0; i < 4; i++) await again.deposit('carol', 1);
  await t.resolves(again.durable(), 'the next snapshot commits');
  t.same(again.executions('alice', {}), executions);
  await again.close();
});
