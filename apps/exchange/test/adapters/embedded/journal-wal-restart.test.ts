// Both journals start the WAL over when their WalRestarts asks (the checkpointer's rule and the
// race it answers are played step by step in the kit's sqlite-wal-restart.test.ts). Here nothing
// else copies the WAL back: asked before every batch, the WAL never holds more than about one
// batch; never asked, it holds them all.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqlite } from '@tessera/kit';
import type { WalRestarts } from '@tessera/kit/sqlite';
import { SqliteJournal } from '../../../src/adapters/embedded/sqlite-journal.ts';
import { WorkerJournal } from '../../../src/adapters/embedded/worker-journal.ts';
import { deposit } from './journal-fixtures.ts';

const BATCHES = 30;

/** The -wal file's size after BATCHES batches of 50 deposits (before the journal closes). */
async function walAfterBatches(t: Test, writer: 'thread' | 'inline', asked: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ex-journal-wal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'journal.db');
  const reader = openSqlite(file, { synchronous: 'normal' });
  const walRestarts: WalRestarts = { takeRestart: () => asked, copyBackFailed: () => undefined };
  let journal: WorkerJournal | SqliteJournal;
  if (writer === 'thread') {
    journal = new WorkerJournal({ file, synchronous: 'normal', reader, walRestarts });
  } else {
    // As selectAdapters sets up the inline writer: no automatic checkpoint on its connection.
    reader.exec('PRAGMA wal_autocheckpoint = 0');
    journal = new SqliteJournal(reader, walRestarts);
  }
  let seq = 0;
  for (let batch = 0; batch < BATCHES; batch++) {
    for (let i = 0; i < 50; i++) journal.append(++seq, deposit(seq));
    await journal.commit();
  }
  const size = statSync(`${file}-wal`).size;
  await journal.close();
  reader.close();
  return size;
}

for (const writer of ['thread', 'inline'] as const) {
  t.test(`the ${writer} writer copies back first when asked, and the WAL starts over`, async (t) => {
    const never = await walAfterBatches(t, writer, false);
    const asked = await walAfterBatches(t, writer, true);
    t.ok(
      asked * 5 < never,
      `-wal ${asked} bytes when asked before each batch, ${never} bytes when never (${BATCHES} batches)`,
    );
  });
}

/** A thread-written journal asked to copy back (before every batch unless told), each copy-back failing so. */
function failingCopyBacks(
  t: Test,
  takeRestart: () => boolean = () => true,
): { reader: DatabaseSync; failures: string[]; journal: WorkerJournal } {
  const dir = mkdtempSync(join(tmpdir(), 'ex-journal-wal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'journal.db');
  const reader = openSqlite(file, { synchronous: 'normal' });
  const failures: string[] = [];
  const walRestarts: WalRestarts = { takeRestart, copyBackFailed: (message) => failures.push(message) };
  const journal = new WorkerJournal({
    file,
    synchronous: 'normal',
    reader,
    walRestarts,
    failCopyBacks: 'disk I/O error',
  });
  return { reader, failures, journal };
}

t.test(
  'a copy-back that fails on the writer thread reaches the checkpointer; the batch commits',
  async (t) => {
    const { reader, failures, journal } = failingCopyBacks(t);
    for (let seq = 1; seq <= 3; seq++) {
      journal.append(seq, deposit(seq));
      await journal.commit();
    }
    t.same(failures, ['disk I/O error', 'disk I/O error', 'disk I/O error'], 'one told per batch');
    await journal.close();
    const rows = reader.prepare('SELECT COUNT(*) AS n FROM journal').get() as { n: number };
    t.equal(rows.n, 3, 'every batch committed');
    reader.close();
  },
);

t.test('a copy-back that fails before a batch that fails too reaches the checkpointer', async (t) => {
  const { reader, failures, journal } = failingCopyBacks(t);
  // Another writer takes seq 1 behind the journal's back: the writer's insert of it fails.
  reader
    .prepare("INSERT INTO journal (first_seq, last_seq, commands, executions) VALUES (1, 1, '', '[]')")
    .run();
  journal.append(1, deposit(1));
  await t.rejects(journal.commit(), /UNIQUE|constraint/i, 'the batch fails with its own error');
  t.same(failures, ['disk I/O error'], 'and the copy-back before it is told');
  await journal.close();
  reader.close();
});

t.test('a restart taken for a batch that never reached the thread goes with the next batch', async (t) => {
  // Asked once, as the checkpointer asks once a round.
  let asked = 1;
  const { reader, failures, journal } = failingCopyBacks(t, () => asked-- > 0);
  journal.append(1, deposit(1));
  // A snapshot goes by the port: one that cannot be cloned fails its batch before the thread sees it.
  journal.saveSnapshot({ seq: 1, parts: [() => undefined] as unknown as string[] });
  await t.rejects(journal.commit(), { name: 'DataCloneError' }, 'the batch fails');
  t.same(failures, [], 'no copy-back was tried');
  journal.append(1, deposit(1));
  await journal.commit();
  t.same(failures, ['disk I/O error'], 'the next batch tried the copy-back asked for');
  await journal.close();
  reader.close();
});
