import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { openSqlite, WalCheckpointer } from '../src/sqlite.ts';

t.test('a writer without automatic checkpoints has its WAL copied back by the checkpointer', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-wal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'x.db');
  const db = openSqlite(file, { synchronous: 'normal' });
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)');
  const insert = db.prepare('INSERT INTO t (b) VALUES (?)');
  for (let i = 0; i < 200; i++) {
    db.exec('BEGIN');
    for (let j = 0; j < 50; j++) insert.run('x'.repeat(100));
    db.exec('COMMIT');
  }
  const fileBefore = statSync(file).size;
  t.ok(statSync(`${file}-wal`).size > 1_000_000, 'the commits stayed in the WAL');
  const checkpointer = new WalCheckpointer(file, 'normal', 20);
  t.teardown(() => checkpointer.close());
  await pollUntil(
    'a round that copied the whole WAL',
    () =>
      Promise.resolve(
        checkpointer.stats.frames > 0 && checkpointer.stats.copied === checkpointer.stats.frames,
      ),
    { ms: 30_000, intervalMs: 10 },
  );
  const { rounds, frames, copied } = checkpointer.stats;
  t.ok(
    rounds > 0 && frames > 0 && copied === frames,
    `${copied} of ${frames} frames copied in ${rounds} rounds`,
  );
  t.equal(checkpointer.stats.failures, 0, 'no round failed');
  t.ok(statSync(file).size > fileBefore + 1_000_000, 'the rows are in the database file now');
  t.equal((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n, 10_000);
  db.close();
});

t.test('a round that finds another checkpoint running counts as busy, not as a round', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-wal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'x.db');
  const db = openSqlite(file, { synchronous: 'normal' });
  t.teardown(() => db.close());
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)');
  db.prepare('INSERT INTO t (b) VALUES (?)').run('x'.repeat(10_000));
  const checkpointer = new WalCheckpointer(file, 'normal', 20);
  t.teardown(() => checkpointer.close());
  // Not pollUntil: a try whose FULL checkpoint no round saw is retried, not failed.
  const settle = async (done: () => boolean): Promise<void> => {
    const deadline = Date.now() + 10_000;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  await pollUntil('a first round', () => Promise.resolve(checkpointer.stats.rounds > 0), {
    ms: 10_000,
    intervalMs: 1,
  });
  const { frames, copied } = checkpointer.stats;
  t.ok(frames > 0 && copied === frames, `a round copied ${copied} of ${frames} frames`);
  // A FULL checkpoint holds the checkpoint lock while it waits for the writer to finish: for as
  // long as this thread blocks in it, every round of the checkpointer's thread finds it running.
  const other = openSqlite(file, { synchronous: 'normal' });
  t.teardown(() => other.close());
  other.exec('PRAGMA busy_timeout = 300');
  const full = other.prepare('PRAGMA wal_checkpoint(FULL)');
  db.exec('BEGIN IMMEDIATE');
  for (let tries = 0; tries < 10 && checkpointer.stats.busy === 0; tries++) {
    full.get();
    await settle(() => checkpointer.stats.busy > 0);
  }
  db.exec('ROLLBACK');
  const stats = checkpointer.stats;
  t.ok(stats.busy > 0, `${stats.busy} busy rounds`);
  t.same(
    { frames: stats.frames, copied: stats.copied },
    { frames, copied },
    'frames and copied are the last round that ran (a busy one reports -1 for both)',
  );
  t.equal(stats.failures, 0, 'a busy round is no failure');
});

t.test('onRound: each round is told once its stats are in, a restart to take with them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-wal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'x.db');
  const db = openSqlite(file, { synchronous: 'normal' });
  t.teardown(() => db.close());
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)');
  db.prepare('INSERT INTO t (b) VALUES (?)').run('x'.repeat(100_000));
  // A restart from 1 frame: the first round that copies the WAL whole asks for one.
  const checkpointer = new WalCheckpointer(file, 'normal', 20, 1);
  t.teardown(() => checkpointer.close());
  const seen: Array<{ rounds: number; restart: boolean }> = [];
  const told = new Promise<void>((resolve) =>
    checkpointer.onRound(() => {
      seen.push({ rounds: checkpointer.stats.rounds, restart: checkpointer.takeRestart() });
      if (seen.length === 2) resolve();
    }),
  );
  await told;
  t.same(
    seen.map((s) => s.rounds),
    [1, 2],
    'told after each round, its stats counted',
  );
  t.equal(seen[0]?.restart, true, 'the first round copied the WAL whole: a restart');
});
