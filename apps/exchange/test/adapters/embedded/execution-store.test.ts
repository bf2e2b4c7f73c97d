import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { encodeCommand } from '../../../src/adapters/embedded/command-codec.ts';
import { ExecutionStoreReads, type ExecutionRow } from '../../../src/adapters/embedded/execution-store.ts';
import { JournalBatchWriter } from '../../../src/adapters/embedded/journal-store.ts';
import { SqliteJournal } from '../../../src/adapters/embedded/sqlite-journal.ts';
import { WorkerJournal } from '../../../src/adapters/embedded/worker-journal.ts';
import type { Execution } from '../../../src/core/messages.ts';
import { deposit, execution } from './journal-fixtures.ts';

function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ex-executions-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'exchange.db');
}

const stored = ({ counterOrderId: _counter, ...e }: Execution) => e;
const row = (e: Execution): ExecutionRow => [
  e.id,
  e.seq,
  e.orderId,
  e.account,
  e.symbol,
  e.side,
  e.price,
  e.quantity,
  e.at,
  e.counterOrderId,
];

t.test('executions are read at once, the same before and after their commit', async (t) => {
  const file = tempFile(t);
  const journal = new SqliteJournal(openSqlite(file));
  journal.append(1, deposit(1));
  const a1 = execution(1, 1, 'a', 7);
  const b2 = execution(2, 1, 'b', 8);
  const a3 = execution(3, 1, 'a', 9);
  for (const e of [a1, b2, a3]) journal.appendExecution(e);
  const before = journal.executionsOf('a');
  t.same(before, [stored(a1), stored(a3)], 'appended, not yet committed');
  await journal.commit();
  t.strictSame(journal.executionsOf('a'), before, 'committed: the same rows');
  t.same(journal.executionsOf('a', 9), [stored(a3)], 'of one order');
  t.same(journal.executionsOf('a', 8), [], "another account's order");
  journal.append(2, deposit(2));
  const a4 = execution(4, 2, 'a', 7);
  journal.appendExecution(a4);
  t.same(journal.executionsOf('a', 7), [stored(a1), stored(a4)], 'committed, then unwritten');
  await journal.close();
  const reopened = new SqliteJournal(openSqlite(file));
  t.same(
    reopened.executionsOf('a').map((e) => e.id),
    [1, 3, 4],
    'durable',
  );
  t.same(reopened.executionsOf('b'), [stored(b2)]);
  await reopened.close();
});

t.test('a batch committed but still listed as unwritten is read once', async (t) => {
  const db = openSqlite(tempFile(t));
  const writer = new JournalBatchWriter(db);
  const reads = new ExecutionStoreReads(db);
  const rows = [row(execution(1, 1)), row(execution(2, 1))];
  writer.write({
    firstSeq: 1,
    lastSeq: 1,
    commands: encodeCommand(deposit(1)),
    executions: JSON.stringify(rows),
    finished: '[]',
  });
  t.same(
    reads.executionsOf('a', undefined, []).map((e) => e.id),
    [1, 2],
    'committed',
  );
  t.same(
    reads.executionsOf('a', undefined, rows).map((e) => e.id),
    [1, 2],
  );
  t.same(
    reads.executionsOf('a', undefined, [...rows, row(execution(3, 2))]).map((e) => e.id),
    [1, 2, 3],
  );
  db.close();
});

t.test('a journal from before the store has its executions copied in once', async (t) => {
  const file = tempFile(t);
  const old = openSqlite(file);
  old.exec(`CREATE TABLE journal (first_seq INTEGER PRIMARY KEY, last_seq INTEGER NOT NULL,
    commands TEXT NOT NULL, executions TEXT NOT NULL)`);
  // The old rows had no counter order id.
  old.prepare('INSERT INTO journal VALUES (1, 1, ?, ?)').run(
    '',
    JSON.stringify([
      [1, 1, 5, 'a', 'AAPL', 'sell', 10, 2, 3],
      [2, 1, 6, 'b', 'AAPL', 'buy', 10, 2, 3],
    ]),
  );
  old.close();
  const journal = new SqliteJournal(openSqlite(file));
  t.same(journal.executionsOf('a'), [
    {
      id: 1,
      orderId: 5,
      account: 'a',
      symbol: 'AAPL',
      side: 'sell',
      price: 10,
      orderType: 'limit',
      quantity: 2,
      at: 3,
      seq: 1,
    },
  ]);
  await journal.close();
  const again = new SqliteJournal(openSqlite(file));
  t.same(
    again.executionsOf('b').map((e) => e.id),
    [2],
    'not copied twice',
  );
  await again.close();
});

t.test('with the writer thread: read at once, the same once committed by the worker', async (t) => {
  const file = tempFile(t);
  const reader = openSqlite(file);
  const journal = new WorkerJournal({ file, synchronous: 'full', reader });
  journal.append(1, deposit(1));
  const a1 = execution(1, 1);
  journal.appendExecution(a1);
  t.same(journal.executionsOf('a'), [stored(a1)]);
  await journal.commit();
  t.same(journal.executionsOf('a'), [stored(a1)]);
  await journal.close();
  reader.close();
});
