import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import type { DatabaseSync } from 'node:sqlite';
import { encodeCommand } from '../../../src/adapters/embedded/command-codec.ts';
import { ExecutionStoreReads } from '../../../src/adapters/embedded/execution-store.ts';
import { Generation, storedRows } from '../../../src/adapters/embedded/held-records.ts';
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
const ids = (executions: ReadonlyArray<{ id: number }>) => executions.map((e) => e.id);
const count = (db: DatabaseSync) =>
  (db.prepare('SELECT COUNT(*) AS n FROM executions').get() as { n: number }).n;

t.test('executions are held until a snapshot stores them, and read the same throughout', async (t) => {
  const file = tempFile(t);
  const db = openSqlite(file);
  const journal = new SqliteJournal(db);
  journal.append(1, deposit(1));
  const a1 = execution(1, 1, 'a', 7);
  const b2 = execution(2, 1, 'b', 8);
  const a3 = execution(3, 1, 'a', 9);
  for (const e of [a1, b2, a3]) journal.appendExecution(e);
  const before = journal.executionsOf('a');
  t.same(before, [a1, a3], 'appended, not yet committed');
  await journal.commit();
  t.equal(count(db), 0, 'committed with the batch, not stored yet');
  t.same(journal.executionsOf('a'), before, 'held: the same rows');
  journal.append(2, deposit(2));
  journal.saveSnapshot({ seq: 2, parts: ['{}'] });
  const a4 = execution(4, 3, 'a', 7);
  journal.append(3, deposit(3));
  journal.appendExecution(a4);
  t.same(ids(journal.executionsOf('a', 7)), [1, 4], 'a sealed generation and the gathering one');
  await journal.commit();
  t.equal(count(db), 3, "the snapshot's transaction stored what was held before it, not what came after");
  t.same(journal.executionsOf('a'), [stored(a1), stored(a3), a4], 'stored, then held');
  t.same(journal.executionsOf('a', 9), [stored(a3)], 'of one order');
  t.same(journal.executionsOf('a', 8), [], "another account's order");
  t.same(journal.executionsOf('b'), [stored(b2)]);
  await journal.close();
  const reopened = new SqliteJournal(openSqlite(file));
  t.same(ids(reopened.executionsOf('a')), [1, 3], 'stored ones are durable (a4 comes back with the replay)');
  await reopened.close();
});

t.test('a generation stored but still held is read once', (t) => {
  const db = openSqlite(tempFile(t));
  const writer = new JournalBatchWriter(db);
  const reads = new ExecutionStoreReads(db);
  const generation = new Generation();
  for (const e of [execution(1, 1), execution(2, 1), execution(3, 1, 'b')]) generation.addExecution(e);
  writer.write({
    firstSeq: 1,
    lastSeq: 1,
    commands: encodeCommand(deposit(1)),
    snapshot: { seq: 1, parts: ['{}'] },
    stored: storedRows([generation]),
  });
  t.same(ids(reads.executionsOf('a', undefined, [])), [1, 2], 'stored');
  t.same(ids(reads.executionsOf('a', undefined, [generation])), [1, 2], 'stored and held: once');
  const next = new Generation();
  next.addExecution(execution(4, 2));
  t.same(ids(reads.executionsOf('a', undefined, [generation, next])), [1, 2, 4]);
  t.same(ids(reads.executionsOf('a', undefined, [next])), [1, 2, 4]);
  t.same(ids(reads.executionsOf('a', 1, [next])), [1, 2, 4], 'of one order');
  db.close();
  t.end();
});

t.test("stored rows are sorted by their table's key and cut into inserts of at most `size` rows", (t) => {
  const first = new Generation();
  const second = new Generation();
  first.addExecution(execution(1, 1, 'b', 3));
  first.addExecution(execution(2, 1, 'a', 4));
  first.addExecution(execution(3, 2, 'a', 3));
  second.addExecution(execution(4, 3, 'b', 1));
  second.addExecution(execution(5, 4, 'a', 4));
  const rows = storedRows([first, second], 2);
  t.same(
    rows.executions.map((part) => (JSON.parse(part) as number[][]).map((r) => r[0])),
    [[3, 2], [5, 4], [1]],
    'by account, order and id',
  );
  t.same(rows.orders, []);
  t.same(rows.ordersByAccount, []);
  t.same(rows.ordersByClientId, []);
  t.end();
});

t.test('with the writer thread: held, then stored by the snapshot the worker commits', async (t) => {
  const file = tempFile(t);
  const reader = openSqlite(file);
  const journal = new WorkerJournal({ file, synchronous: 'full', reader });
  journal.append(1, deposit(1));
  const a1 = execution(1, 1);
  journal.appendExecution(a1);
  t.same(journal.executionsOf('a'), [a1]);
  journal.saveSnapshot({ seq: 1, parts: ['{}'] });
  await journal.commit();
  t.equal(count(reader), 1);
  t.same(journal.executionsOf('a'), [stored(a1)]);
  await journal.close();
  reader.close();
});
