// Starting the WAL over under steady writes (WalCheckpointer#takeRestart, walCopyBack). The race
// that keeps the WAL growing is played step by step on one thread: a batch begins while a
// checkpoint round copies, and commits after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import t, { type Test } from 'tap';
import { pollUntil } from '@tessera/testkit';
import { openSqlite, threadWalCopyBack, walCopyBack, WalCheckpointer } from '../src/sqlite.ts';

function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-wal-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'x.db');
}

function writer(file: string): { db: DatabaseSync; batch: () => void } {
  const db = openSqlite(file, { synchronous: 'normal' });
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec('CREATE TABLE IF NOT EXISTS t (a INTEGER PRIMARY KEY, b TEXT)');
  const insert = db.prepare('INSERT INTO t (b) VALUES (?)');
  return {
    db,
    batch: () => {
      for (let i = 0; i < 20; i++) insert.run('x'.repeat(200));
    },
  };
}

interface Round {
  readonly log: number;
  readonly checkpointed: number;
}

/** Eight batches, each begun before a round and committed after it; the WAL's frames at each round. */
function steadyWrites(file: string, copyBackWhenAsked: boolean): number[] {
  const { db, batch } = writer(file);
  const checkpointer = openSqlite(file, { synchronous: 'normal' });
  const round = checkpointer.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const copyBack = walCopyBack(db);
  const frames: number[] = [];
  let asked = false;
  for (let i = 0; i < 8; i++) {
    if (copyBackWhenAsked && asked) copyBack();
    db.exec('BEGIN');
    batch();
    const { log, checkpointed } = round.get() as unknown as Round;
    db.exec('COMMIT');
    frames.push(log);
    // What takeRestart() asks of a round: the WAL copied back whole.
    asked = checkpointed === log;
  }
  checkpointer.close();
  db.close();
  return frames;
}

t.test('a writer that never copies back keeps the WAL growing: every round leaves its batch', async (t) => {
  const frames = steadyWrites(tempFile(t), false);
  t.ok(
    frames.every((f, i) => i === 0 || f > frames[i - 1]!),
    `frames at each round grow: ${frames.join(' ')}`,
  );
});

t.test('copying back before the batch a round asked for starts the WAL over', async (t) => {
  const grown = steadyWrites(tempFile(t), false);
  const frames = steadyWrites(tempFile(t), true);
  t.ok(
    frames.slice(2).every((f) => f === frames[2]),
    `frames at each round stay at one batch's after the first restart: ${frames.join(' ')}`,
  );
  t.ok(frames[7]! < grown[7]! / 3, `${frames[7]} frames at the last round, against ${grown[7]} without`);
});

function roundAfter(checkpointer: WalCheckpointer, rounds: number): Promise<void> {
  return pollUntil(
    `checkpoint round ${rounds + 1}`,
    () => Promise.resolve(checkpointer.stats.rounds > rounds),
    {
      ms: 10_000,
      intervalMs: 5,
    },
  );
}

t.test('takeRestart: once a round, after a round that copied a long enough WAL whole', async (t) => {
  const file = tempFile(t);
  const { db, batch } = writer(file);
  t.teardown(() => db.close());
  for (let i = 0; i < 10; i++) batch();
  const checkpointer = new WalCheckpointer(file, 'normal', 10, 16);
  t.teardown(() => checkpointer.close());
  t.notOk(checkpointer.takeRestart(), 'not before any round');
  await roundAfter(checkpointer, 0);
  const { frames, copied } = checkpointer.stats;
  t.ok(frames >= 16 && copied === frames, `the round copied ${copied} of ${frames} frames`);
  t.ok(checkpointer.takeRestart(), 'asked after the round');
  t.notOk(checkpointer.takeRestart(), 'asked once for that round');
});

t.test('takeRestart: not for a WAL shorter than the threshold', async (t) => {
  const file = tempFile(t);
  const { db, batch } = writer(file);
  t.teardown(() => db.close());
  batch();
  const checkpointer = new WalCheckpointer(file, 'normal', 10, 1_000_000);
  t.teardown(() => checkpointer.close());
  await roundAfter(checkpointer, 0);
  const { frames, copied } = checkpointer.stats;
  t.ok(frames > 0 && copied === frames, `the round copied ${copied} of ${frames} frames`);
  t.notOk(checkpointer.takeRestart(), 'a short WAL is left to SQLite');
});

t.test('walCopyBack: a failure other than a lock is counted in the checkpointer, never thrown', async (t) => {
  const file = tempFile(t);
  const { db } = writer(file);
  const checkpointer = new WalCheckpointer(file, 'normal', 1_000_000);
  t.teardown(() => checkpointer.close());
  const copyBack = walCopyBack(db, checkpointer);
  db.close();
  t.doesNotThrow(copyBack, 'the batch after it is not failed by the copy-back');
  const { copyBackFailures, lastFailure } = checkpointer.stats;
  t.equal(copyBackFailures, 1, 'one copy-back failed');
  t.match(lastFailure, /finalized|not open/, `the last failure: ${lastFailure}`);
});

t.test('walCopyBack: a lock held a moment is left to the next request, not counted', async (t) => {
  const file = tempFile(t);
  const { db, batch } = writer(file);
  t.teardown(() => db.close());
  const checkpointer = new WalCheckpointer(file, 'normal', 1_000_000);
  t.teardown(() => checkpointer.close());
  const copyBack = walCopyBack(db, checkpointer);
  // Inside its own transaction the connection cannot checkpoint: SQLITE_LOCKED.
  db.exec('BEGIN');
  batch();
  t.doesNotThrow(copyBack);
  db.exec('ROLLBACK');
  t.equal(checkpointer.stats.copyBackFailures, 0);
});

t.test('walCopyBack: without a checkpointer a failure is a process warning', async (t) => {
  const { db } = writer(tempFile(t));
  const copyBack = walCopyBack(db);
  db.close();
  const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
  copyBack();
  const warning = await warned;
  t.equal(warning.name, 'WalCopyBackWarning');
  t.match(warning.message, /WAL copy-back failed/);
});

t.test(
  'a reader holding its snapshot pins the WAL: no restart is asked, and the stats show it',
  async (t) => {
    const file = tempFile(t);
    const { db, batch } = writer(file);
    t.teardown(() => db.close());
    for (let i = 0; i < 10; i++) batch();
    const reader = openSqlite(file, { synchronous: 'normal' });
    t.teardown(() => reader.close());
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) AS n FROM t').get();
    const checkpointer = new WalCheckpointer(file, 'normal', 10, 16);
    t.teardown(() => checkpointer.close());
    const frames: number[] = [];
    for (let i = 0; i < 5; i++) {
      batch();
      // Two rounds: the first may have begun before the batch committed.
      await roundAfter(checkpointer, checkpointer.stats.rounds + 1);
      t.notOk(checkpointer.takeRestart(), `no restart asked at ${checkpointer.stats.frames} frames`);
      frames.push(checkpointer.stats.frames);
    }
    t.ok(
      frames.every((f, i) => i === 0 || f > frames[i - 1]!),
      `the WAL grows while the reader stays: ${frames.join(' ')} frames`,
    );
    const pinned = checkpointer.stats;
    t.ok(pinned.copied < pinned.frames, `a round copied ${pinned.copied} of ${pinned.frames} frames`);
    t.ok(pinned.pinnedRounds >= 10, `${pinned.pinnedRounds} rounds in a row copied less than they found`);
    t.equal(pinned.largestFrames, frames[4], 'the longest WAL is the last');

    reader.exec('COMMIT');
    // Two rounds, as above: the first may have begun before the reader ended.
    await roundAfter(checkpointer, checkpointer.stats.rounds + 1);
    const { copied, pinnedRounds, largestFrames } = checkpointer.stats;
    t.equal(copied, frames[4], 'the round after the reader copies the WAL whole');
    t.equal(pinnedRounds, 0, 'no longer pinned');
    t.equal(largestFrames, frames[4], 'the longest WAL stays in the stats');
    t.ok(checkpointer.takeRestart(), 'and asks for the restart');
  },
);

t.test('threadWalCopyBack: each call gives back its failure, for the batch’s answer', async (t) => {
  const file = tempFile(t);
  const { db, batch } = writer(file);
  const copyBack = threadWalCopyBack(db);
  batch();
  t.equal(copyBack(), undefined, 'a copy-back that went');
  db.exec('BEGIN');
  batch();
  t.equal(copyBack(), undefined, 'a lock held a moment is no failure');
  db.exec('ROLLBACK');
  db.close();
  t.match(copyBack(), /finalized|not open/, 'a failure other than a lock');
  t.equal(threadWalCopyBack(openSqlite(tempFile(t)), 'disk I/O error')(), 'disk I/O error', 'failWith');
});
