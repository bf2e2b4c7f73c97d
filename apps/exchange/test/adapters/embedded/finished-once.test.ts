// A finished order is inserted into the store once: by the snapshot after it finished. A restart
// replays the commands after the latest snapshot, and those retire their orders again: the next
// snapshot must store those and no order an earlier snapshot stored (INSERT OR IGNORE would hide
// a second insert; a trigger here makes it fail the snapshot).
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { fund, orderFlow, send, type FlowOptions } from '../../../bench/order-flow.ts';
import { finishedOrderInserts } from '../../../src/adapters/embedded/finished-order-store.ts';
import { SqliteJournal } from '../../../src/adapters/embedded/sqlite-journal.ts';
import { exchangeRules, readExchangeConfig } from '../../../src/config.ts';
import { ExchangeService } from '../../../src/service.ts';

const NO_SECOND_INSERT = `CREATE TRIGGER finished_once BEFORE INSERT ON finished_orders
  WHEN EXISTS (SELECT 1 FROM finished_orders WHERE id = NEW.id)
  BEGIN SELECT RAISE(ABORT, 'finished order inserted twice'); END`;

t.test(
  'a restart replaying after a snapshot, then a snapshot: no finished order inserted twice',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ex-finished-once-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'exchange.db');
    const rules = exchangeRules(readExchangeConfig({ EXCHANGE_HOURS: 'always' }));
    const flow: FlowOptions = { seed: 11, accounts: 10, symbols: ['AAPL', 'MSFT'], mid: 10_000 };
    const next = orderFlow(flow);
    const failed: unknown[] = [];
    const open = () =>
      ExchangeService.open({
        rules,
        journal: new SqliteJournal(openSqlite(file, { synchronous: 'normal' })),
        snapshotEvery: 250,
        onSnapshotFailed: (_seq, error) => failed.push(error),
      });
    const traffic = async (service: ExchangeService, requests: number) => {
      for (let i = 0; i < requests; i += 50) {
        for (let j = 0; j < 50; j++) send(service, next());
        await service.durable();
      }
    };
    const stored = () => {
      const db = openSqlite(file);
      const row = db
        .prepare('SELECT COUNT(*) AS n, (SELECT MAX(seq) FROM snapshot_parts) AS seq FROM finished_orders')
        .get() as { n: number; seq: number };
      db.close();
      return row;
    };

    const writer = open();
    await fund(writer, flow);
    await traffic(writer, 1_000);
    const seq = writer.seq;
    await writer.close();
    const before = stored();
    t.ok(before.n > 0 && before.seq < seq, 'orders stored, and commands after the last snapshot');

    const db = openSqlite(file);
    db.exec(NO_SECOND_INSERT);
    const stale = db.prepare('SELECT body FROM finished_orders LIMIT 1').get() as { body: string };
    t.throws(
      () => finishedOrderInserts(db).orders.run(`[${stale.body}]`),
      /inserted twice/,
      'the trigger catches a second insert',
    );
    db.close();

    let last = seq;
    for (let round = 0; round < 2; round++) {
      const restarted = open();
      t.equal(restarted.seq, last, 'every command replayed');
      await traffic(restarted, 600);
      last = restarted.seq;
      await restarted.close();
    }
    t.same(failed, [], 'every snapshot after a restart stored its orders, none twice');
    const after = stored();
    t.ok(
      after.seq > before.seq && after.n > before.n,
      `${after.n - before.n} orders stored after the restarts`,
    );
  },
);
