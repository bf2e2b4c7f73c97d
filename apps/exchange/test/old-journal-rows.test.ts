/**
 * A journal written by the versions whose rows carried each batch's executions as JSON (the
 * `executions` column) opens, replays to the same state and reads the same; the rows written
 * after it carry none, and the old and new rows replay together.
 */
import t from 'tap';
import { openSqlite } from '@tessera/kit';
import { fund, orderFlow, send } from '../bench/order-flow.ts';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import type { Execution } from '../src/core/messages.ts';
import { ExchangeService } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';
import { flow, reads, record, tempFile, type History } from './finished-reads-fixtures.ts';

const SNAPSHOT_EVERY = 40;

function opened(file: string, from = T0) {
  let now = from;
  const db = openSqlite(file, { synchronous: 'normal' });
  const journal = new SqliteJournal(db);
  const service = ExchangeService.open({
    rules: rules(),
    journal,
    now: () => now++,
    snapshotEvery: SNAPSHOT_EVERY,
  });
  return { service, journal, db };
}

async function trade(service: ExchangeService, next: ReturnType<typeof orderFlow>, requests: number) {
  for (let i = 0; i < requests; i++) {
    send(service, next());
    if (i % 25 === 24) await service.durable();
  }
  await service.durable();
}

/** Each row's executions as the older versions wrote them: [id, seq, orderId, account, symbol, side, price, quantity, at]. */
function writeOldRows(file: string, executions: readonly Execution[]): number {
  const db = openSqlite(file);
  const rows = db.prepare('SELECT first_seq, last_seq FROM journal').all() as Array<{
    first_seq: number;
    last_seq: number;
  }>;
  const update = db.prepare('UPDATE journal SET executions = ? WHERE first_seq = ?');
  let written = 0;
  for (const row of rows) {
    const of = executions.filter((e) => e.seq >= row.first_seq && e.seq <= row.last_seq);
    written += of.length;
    const old = of.map((e) => [
      e.id,
      e.seq,
      e.orderId,
      e.account,
      e.symbol,
      e.side,
      e.price,
      e.quantity,
      e.at,
    ]);
    update.run(JSON.stringify(old), row.first_seq);
  }
  db.close();
  return written;
}

const executionIds = (journal: SqliteJournal): number[] => {
  const ids: number[] = [];
  journal.executions(([id]) => ids.push(id));
  return ids;
};

t.test('a journal whose rows carry their executions replays and reads the same', async (t) => {
  const file = tempFile(t);
  const first = opened(file);
  const history: History = record(first.service);
  await fund(first.service, flow);
  const next = orderFlow(flow);
  await trade(first.service, next, 600);
  const digest = first.service.digest();
  const before = reads(first.service, history);
  t.ok(history.executions.length > 50, `${history.executions.length} executions`);
  await first.service.close();
  t.equal(writeOldRows(file, history.executions), history.executions.length, 'every execution in a row');

  const second = opened(file, T0 + 10_000_000);
  t.equal(second.service.digest(), digest, 'the same state');
  t.equal(reads(second.service, history), before, 'the same reads');
  const ids = executionIds(second.journal);
  t.same(
    ids,
    history.executions.map((e) => e.id),
    'each execution once, stored or held again by the replay',
  );
  // Trading on adds rows without executions beside the old ones.
  const more = record(second.service);
  await trade(second.service, next, 300);
  t.ok(more.executions.length > 0);
  const digestAfter = second.service.digest();
  const newRows = second.db
    .prepare("SELECT COUNT(*) AS n FROM journal WHERE executions = '[]' AND first_seq > ?")
    .get(first.service.seq) as { n: number };
  t.ok(newRows.n > 0, 'the new rows carry no executions');
  await second.service.close();

  // From the latest snapshot, and from the start of the journal: old and new rows replay alike.
  const third = opened(file, T0 + 20_000_000);
  t.equal(third.service.digest(), digestAfter);
  t.same(
    executionIds(third.journal),
    [...history.executions, ...more.executions].map((e) => e.id),
  );
  third.db.exec('DELETE FROM snapshot_parts');
  await third.service.close();
  const fourth = opened(file, T0 + 30_000_000);
  t.equal(fourth.service.seq, third.service.seq);
  t.equal(fourth.service.digest(), digestAfter, 'the whole journal replays to the same state');
  await fourth.service.close();
});
