import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import { WorkerJournal } from '../../../src/adapters/embedded/worker-journal.ts';
import type { Command } from '../../../src/core/messages.ts';
import { deposit } from './journal-fixtures.ts';

function open(t: Test, file?: string, sharedBytes?: number) {
  const path = file ?? join(mkdtempSync(join(tmpdir(), 'ex-worker-journal-')), 'journal.db');
  const reader = openSqlite(path);
  const journal = new WorkerJournal({
    file: path,
    synchronous: 'full',
    reader,
    ...(sharedBytes === undefined ? {} : { sharedBytes }),
  });
  t.teardown(async () => {
    await journal.close();
    reader.close();
    if (file === undefined) rmSync(join(path, '..'), { recursive: true, force: true });
  });
  return { journal, path };
}

const rows = (path: string) => {
  const db = new DatabaseSync(path);
  const found = db
    .prepare('SELECT first_seq, last_seq FROM journal ORDER BY first_seq')
    .all()
    .map((r) => [r.first_seq, r.last_seq]);
  db.close();
  return found;
};

t.test('a batch is committed by the worker before commit() resolves; replay reads it back', async (t) => {
  const { journal, path } = open(t);
  journal.append(1, deposit(1));
  journal.append(2, deposit(2));
  const committed = journal.commit();
  t.same(rows(path), [], 'nothing visible before the commit');
  await committed;
  t.same(rows(path), [[1, 2]], 'one row for the batch');
  const seen: number[] = [];
  journal.replay(0, (seq) => seen.push(seq));
  t.same(seen, [1, 2]);
});

t.test('while a batch is with the worker the next one gathers, and goes whole after it', async (t) => {
  const { journal, path } = open(t);
  journal.append(1, deposit(1));
  const first = journal.commit();
  // The first batch leaves at the end of this turn; these arrive in later turns, before it is back.
  await new Promise((resolve) => setImmediate(resolve));
  let seq = 1;
  for (let turn = 0; turn < 5; turn++) {
    journal.append(++seq, deposit(seq));
    journal.append(++seq, deposit(seq));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const last = journal.commit();
  t.not(last, first);
  await Promise.all([first, last]);
  const written = rows(path);
  t.same(written[0], [1, 1]);
  t.ok(written.length < 7, `${written.length} commits for 6 turns of appends`);
  t.equal(written.at(-1)![1], 11, 'every append committed, in order');
  t.equal(journal.lastSeq, 11);
});

t.test('commands with text beyond ASCII cross to the writer as they were appended', async (t) => {
  const { journal } = open(t);
  const named = (seq: number, account: string): Command => ({ ...deposit(seq), account });
  journal.append(1, named(1, 'zoë'));
  journal.append(2, named(2, '株式 "quoted" \\ 😀'));
  journal.append(3, deposit(3));
  await journal.commit();
  const seen: Command[] = [];
  journal.replay(0, (_seq, command) => seen.push(command));
  t.same(seen, [named(1, 'zoë'), named(2, '株式 "quoted" \\ 😀'), deposit(3)]);
});

t.test('snapshots in parts go with their batch', async (t) => {
  const { journal } = open(t);
  journal.append(1, deposit(1));
  journal.saveSnapshot({ seq: 1, parts: ['{"v":2}', '{"orders":[]}'] });
  await journal.commit();
  t.same({ ...journal.latestSnapshot() }, { seq: 1, parts: ['{"v":2}', '{"orders":[]}'] });
});

t.test(
  'a batch the worker cannot commit is lost whole; its waiters and the next batch are refused',
  async (t) => {
    const { journal, path } = open(t);
    journal.append(1, deposit(1));
    await journal.commit();
    // Another writer takes seq 2 behind the journal's back: the worker's insert of it fails.
    const other = new DatabaseSync(path);
    other
      .prepare("INSERT INTO journal (first_seq, last_seq, commands, executions) VALUES (2, 2, '', '[]')")
      .run();
    other.close();
    journal.append(2, deposit(2));
    const failing = journal.commit();
    await new Promise((resolve) => setImmediate(resolve));
    journal.append(3, deposit(3));
    const next = journal.commit();
    await t.rejects(failing, { message: /UNIQUE|constraint/i, code: 'ERR_SQLITE_ERROR' }, 'with its code');
    await t.rejects(next, /UNIQUE|constraint/i);
    t.equal(journal.lastSeq, 2, 'the seqs after the last committed row are free again');
  },
);

t.test('a batch larger than the shared bytes goes as a message, in order with the others', async (t) => {
  // 200 bytes in shared memory: one deposit fits, ten do not.
  const { journal, path } = open(t, undefined, 200);
  journal.append(1, deposit(1));
  await journal.commit();
  for (let seq = 2; seq <= 11; seq++) journal.append(seq, deposit(seq));
  await journal.commit();
  journal.append(12, deposit(12));
  await journal.commit();
  t.same(rows(path), [
    [1, 1],
    [2, 11],
    [12, 12],
  ]);
  const seen: number[] = [];
  journal.replay(0, (seq, command) => {
    seen.push(seq);
    t.same(command, deposit(seq));
  });
  t.same(
    seen,
    Array.from({ length: 12 }, (_, i) => i + 1),
    'every command read back as appended',
  );
});

t.test('a writer thread that stops fails its batch and every later one; close still ends', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ex-worker-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const reader = openSqlite(join(dir, 'journal.db'));
  t.teardown(() => reader.close());
  // The thread cannot open a directory as its database: it fails as it starts.
  const journal = new WorkerJournal({ file: dir, synchronous: 'full', reader });
  journal.append(1, deposit(1));
  await t.rejects(journal.commit(), /unable to open|database/i);
  t.equal(journal.lastSeq, 0, 'the lost batch frees its seq');
  journal.append(1, deposit(1));
  await t.rejects(journal.commit(), /unable to open|database/i, 'a later batch is refused too');
  await journal.close();
});

t.test('a reopened journal continues after the last committed seq', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ex-worker-journal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'journal.db');
  {
    const reader = openSqlite(file);
    const journal = new WorkerJournal({ file, synchronous: 'normal', reader });
    for (let seq = 1; seq <= 3; seq++) journal.append(seq, deposit(seq));
    await journal.close();
    reader.close();
  }
  const { journal } = open(t, file);
  t.equal(journal.lastSeq, 3);
  t.throws(() => journal.append(3, deposit(3)), /seq 3 after 3/);
});
