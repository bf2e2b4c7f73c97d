import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../../../src/adapters/embedded/sqlite-journal.ts';
import type { Command } from '../../../src/core/messages.ts';
import { deposit, execution } from './journal-fixtures.ts';

function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ex-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'exchange.db');
}

t.test('appends of one turn share one commit; replay gives them back in order', async (t) => {
  const file = tempFile(t);
  const journal = new SqliteJournal(openSqlite(file));
  journal.append(1, deposit(1));
  journal.append(2, deposit(2));
  journal.appendExecution(execution(1, 2));
  const first = journal.commit();
  t.equal(journal.commit(), first, 'one promise per batch');
  // Before the commit another connection sees nothing: the batch is one transaction.
  const reader = new DatabaseSync(file);
  t.equal((reader.prepare('SELECT COUNT(*) AS n FROM journal').get() as { n: number }).n, 0);
  await first;
  t.same(
    reader
      .prepare('SELECT first_seq, last_seq, executions FROM journal')
      .all()
      .map((r) => ({ ...r })),
    [{ first_seq: 1, last_seq: 2, executions: '[]' }],
    'one row for the batch, without its executions (a replay derives them)',
  );
  const executions: unknown[] = [];
  journal.executions((row) => executions.push(row));
  t.same(executions, [[1, 2, 1, 'a', 'AAPL', 'buy', 10, 1, 5, 2]], 'held until a snapshot stores it');
  journal.append(3, deposit(3));
  await journal.commit();
  const seen: Array<[number, Command]> = [];
  journal.replay(1, (seq, command) => seen.push([seq, command]));
  t.same(seen, [
    [2, deposit(2)],
    [3, deposit(3)],
  ]);
  t.equal(journal.lastSeq, 3);
  reader.close();
  await journal.close();
});

t.test('a gap or a repeat is refused', async (t) => {
  const journal = new SqliteJournal(openSqlite(tempFile(t)));
  journal.append(1, deposit(1));
  t.throws(() => journal.append(3, deposit(3)), /seq 3 after 1/);
  t.throws(() => journal.append(1, deposit(1)), /seq 1 after 1/);
  await journal.close();
  t.throws(() => journal.append(2, deposit(2)), /closed/);
});

t.test('replay can start inside a batch (a snapshot taken mid-batch)', async (t) => {
  const journal = new SqliteJournal(openSqlite(tempFile(t)));
  for (let seq = 1; seq <= 5; seq++) journal.append(seq, deposit(seq));
  await journal.commit();
  journal.append(6, deposit(6));
  await journal.commit();
  const seen: number[] = [];
  journal.replay(3, (seq, command) => seen.push(seq, command.at));
  t.same(seen, [4, 4, 5, 5, 6, 6]);
  await journal.close();
});

t.test('a batch whose commit fails is lost whole and rejects its waiters', async (t) => {
  const file = tempFile(t);
  const db = openSqlite(file);
  const journal = new SqliteJournal(db);
  journal.append(1, deposit(1));
  await journal.commit();
  journal.append(2, deposit(2));
  journal.append(3, deposit(3));
  // The connection goes before the batch's COMMIT, as in a crash: the next process sees seq 1.
  db.close();
  await t.rejects(journal.commit());
  const reopened = new SqliteJournal(openSqlite(file));
  t.equal(reopened.lastSeq, 1);
  const seen: number[] = [];
  reopened.replay(0, (seq) => seen.push(seq));
  t.same(seen, [1]);
});

t.test('a batch that cannot be serialised is lost whole; the journal goes on', async (t) => {
  const journal = new SqliteJournal(openSqlite(tempFile(t)));
  journal.append(1, deposit(1));
  await journal.commit();
  // Commands are validated data; a BigInt stands for a bug elsewhere that JSON cannot write.
  journal.append(2, { ...deposit(2), cash: 2n } as unknown as Command);
  await t.rejects(journal.commit(), /BigInt/);
  t.equal(journal.lastSeq, 1, 'its seq is free again');
  journal.append(2, deposit(2));
  await journal.commit();
  const seen: number[] = [];
  journal.replay(0, (seq) => seen.push(seq));
  t.same(seen, [1, 2]);
  await journal.close();
});

t.test('snapshots: the newest is read back in its parts, only two are kept', async (t) => {
  const file = tempFile(t);
  const journal = new SqliteJournal(openSqlite(file));
  t.equal(journal.latestSnapshot(), undefined);
  for (let seq = 1; seq <= 4; seq++) {
    journal.append(seq, deposit(seq));
    journal.saveSnapshot({ seq, parts: [`{"seq":${seq}}`, '{"b":1}', '{"c":2}'] });
    await journal.commit();
  }
  t.same({ ...journal.latestSnapshot() }, { seq: 4, parts: ['{"seq":4}', '{"b":1}', '{"c":2}'] });
  const reader = new DatabaseSync(file);
  t.same(
    reader
      .prepare('SELECT DISTINCT seq FROM snapshot_parts ORDER BY seq')
      .all()
      .map((r) => r.seq),
    [3, 4],
  );
  reader.close();
  await journal.close();
});

t.test('a snapshot stored whole by an older version is read as one part, then replaced', async (t) => {
  const file = tempFile(t);
  const older = new DatabaseSync(file);
  older.exec('CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  older.prepare('INSERT INTO snapshots (seq, body) VALUES (?, ?)').run(2, '{"whole":2}');
  older.close();
  const journal = new SqliteJournal(openSqlite(file));
  t.same({ ...journal.latestSnapshot() }, { seq: 2, parts: ['{"whole":2}'] });
  for (let seq = 1; seq <= 4; seq++) {
    journal.append(seq, deposit(seq));
    if (seq >= 3) journal.saveSnapshot({ seq, parts: [`{"seq":${seq}}`] });
    await journal.commit();
  }
  t.same({ ...journal.latestSnapshot() }, { seq: 4, parts: ['{"seq":4}'] });
  const reader = new DatabaseSync(file);
  t.equal(reader.prepare('SELECT COUNT(*) AS n FROM snapshots').get()!.n, 0, 'the whole one is pruned');
  reader.close();
  await journal.close();
});

t.test('replay reads past its batch size', async (t) => {
  const journal = new SqliteJournal(openSqlite(tempFile(t)));
  for (let seq = 1; seq <= 25_001; seq++) {
    journal.append(seq, deposit(seq));
    if (seq % 100 === 0) await journal.commit();
  }
  await journal.commit();
  let count = 0;
  let inOrder = true;
  journal.replay(0, (seq) => {
    count++;
    inOrder &&= seq === count;
  });
  t.equal(count, 25_001);
  t.ok(inOrder);
  await journal.close();
});
