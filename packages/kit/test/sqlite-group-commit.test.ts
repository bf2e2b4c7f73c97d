import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { fdatasync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import t, { type Test } from 'tap';
import { pollUntil } from '@tessera/testkit';
import { openSqlite, SqliteGroupCommit, type SyncFile } from '../src/sqlite.ts';

function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-group-commit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'x.db');
}

/** A table of texts; each group is one INSERT per item in one transaction, answering the rowids. */
function open(t: Test, file: string, sync?: SyncFile, holdMicros?: number) {
  const db = openSqlite(file);
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (text) VALUES (?) RETURNING id');
  const groups: number[] = [];
  const commits = new SqliteGroupCommit<string, number>({
    db,
    file,
    sync,
    holdMicros,
    commit(texts) {
      groups.push(texts.length);
      db.exec('BEGIN IMMEDIATE');
      try {
        const ids = texts.map((text) => (insert.get(text) as { id: number }).id);
        db.exec('COMMIT');
        return ids;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
  });
  t.teardown(async () => {
    await commits.close();
    db.close();
  });
  return { db, commits, groups };
}

function count(db: DatabaseSync): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
}

t.test('the connection is set for it: no sync at commit, none of its own checkpoints', async (t) => {
  const { db } = open(t, tempFile(t));
  t.same(db.prepare('PRAGMA synchronous').get(), { synchronous: 1 }, 'NORMAL');
  t.same(db.prepare('PRAGMA wal_autocheckpoint').get(), { wal_autocheckpoint: 0 });
});

t.test('a turn is one group; an item resolves only after a sync that began after its commit', async (t) => {
  const file = tempFile(t);
  const syncs: Array<{ rows: number; done: () => void }> = [];
  const writer: { db?: DatabaseSync } = {};
  // Held until the test lets it go; it records how many rows were committed when it began.
  const sync: SyncFile = (fd, done) => {
    syncs.push({ rows: writer.db === undefined ? 0 : count(writer.db), done: () => fdatasync(fd, done) });
  };
  const { db, commits, groups } = open(t, file, sync);
  writer.db = db;
  const resolved: number[] = [];
  const first = ['a', 'b', 'c'].map((text) => commits.submit(text).then((id) => resolved.push(id)));
  await new Promise((resolve) => setImmediate(resolve));
  t.same(groups, [3], 'one transaction for the turn');
  t.equal(syncs.length, 1, 'its sync began');
  const second = ['d', 'e'].map((text) => commits.submit(text).then((id) => resolved.push(id)));
  await new Promise((resolve) => setImmediate(resolve));
  t.same(groups, [3, 2], 'the next turn committed while the sync ran');
  t.equal(syncs.length, 1, 'and waits for the sync in flight: one at a time');
  t.same(resolved, [], 'nothing answered before its sync');
  syncs[0]!.done();
  await Promise.all(first);
  t.same(resolved, [1, 2, 3], 'the first group, once its sync is done');
  await pollUntil('the second sync', () => Promise.resolve(syncs.length >= 2), { ms: 10_000, intervalMs: 1 });
  t.equal(syncs.length, 2, 'then one sync for the group that waited');
  t.equal(syncs[1]!.rows, 5, 'begun after its commit');
  t.same(resolved, [1, 2, 3], 'the second group still waits for it');
  syncs[1]!.done();
  await Promise.all(second);
  t.same(resolved, [1, 2, 3, 4, 5]);
});

t.test('holdMicros: while a sync runs, the next turns wait and commit as one group at its end', async (t) => {
  const syncs: Array<() => void> = [];
  const sync: SyncFile = (fd, done) => {
    syncs.push(() => fdatasync(fd, done));
  };
  // A hold far longer than the test: only the sync's end lets the held group go.
  const { commits, groups } = open(t, tempFile(t), sync, 60_000_000);
  const first = commits.submit('a');
  await new Promise((resolve) => setImmediate(resolve));
  t.same(groups, [1], 'nothing to wait for: committed at once');
  const held = [commits.submit('b'), commits.submit('c')];
  await new Promise((resolve) => setImmediate(resolve));
  const more = commits.submit('d');
  await new Promise((resolve) => setImmediate(resolve));
  t.same(groups, [1], 'held while the sync runs');
  syncs[0]!();
  t.equal(await first, 1);
  await pollUntil('the held group', () => Promise.resolve(groups.length >= 2), { ms: 10_000, intervalMs: 1 });
  t.same(groups, [1, 3], 'the turns held, in one group');
  syncs[1]!();
  t.same(await Promise.all([...held, more]), [2, 3, 4]);
});

t.test('a failed fdatasync rejects every commit it should have covered, and every one after', async (t) => {
  const file = tempFile(t);
  let fail = false;
  const sync: SyncFile = (fd, done) => {
    if (fail)
      setImmediate(() => done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
    else fdatasync(fd, done);
  };
  const { commits } = open(t, file, sync);
  t.equal(await commits.submit('before'), 1);
  fail = true;
  const results = await Promise.allSettled(['x', 'y'].map((text) => commits.submit(text)));
  t.same(
    results.map((result) => result.status),
    ['rejected', 'rejected'],
  );
  t.match((results[0] as PromiseRejectedResult).reason, { message: /fdatasync of the WAL failed.*EIO/ });
  fail = false;
  await t.rejects(commits.submit('after'), /fdatasync of the WAL failed/, 'no commit after a failed sync');
});

t.test('a commit that throws rejects its group only', async (t) => {
  const { commits, db } = open(t, tempFile(t));
  db.exec(
    "CREATE TRIGGER boom BEFORE INSERT ON t WHEN NEW.text = 'boom' BEGIN SELECT RAISE(ABORT, 'no'); END",
  );
  const results = await Promise.allSettled([commits.submit('ok'), commits.submit('boom')]);
  t.same(
    results.map((result) => result.status),
    ['rejected', 'rejected'],
  );
  t.equal(await commits.submit('next'), 1, 'the rolled back rows took no id');
});

t.test('close waits for what was submitted, then refuses', async (t) => {
  const file = tempFile(t);
  const db = openSqlite(file);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (text) VALUES (?)');
  const commits = new SqliteGroupCommit<string, true>({
    db,
    file,
    commit: (texts) => {
      db.exec('BEGIN IMMEDIATE');
      for (const text of texts) insert.run(text);
      db.exec('COMMIT');
      return texts.map(() => true);
    },
  });
  const submitted = Array.from({ length: 100 }, (_, i) => commits.submit(`r${i}`));
  await commits.close();
  t.equal((await Promise.all(submitted)).length, 100);
  await t.rejects(commits.submit('late'), /closed/);
  t.equal(count(db), 100);
  db.close();
});

t.test('a second close answers the first: both wait for the submitted items', async (t) => {
  const slowSync: SyncFile = (fd, done) => setTimeout(() => fdatasync(fd, done), 50);
  const { commits } = open(t, tempFile(t), slowSync);
  let answered = false;
  const item = commits.submit('a').then(() => (answered = true));
  const first = commits.close();
  const second = commits.close();
  t.equal(second, first, 'the same promise');
  await second;
  t.ok(answered, 'the second close resolved only after the item was synced');
  await item;
});

t.test('the WAL synced stays the live one while the writer is open', async (t) => {
  // SQLite unlinks the WAL only from a connection that closes holding an EXCLUSIVE lock on the
  // database file, which it cannot take while the writer holds its SHARED one; checkpoints and
  // journal_size_limit truncate the file, they do not replace it.
  const file = tempFile(t);
  const { commits } = open(t, file);
  const inode = commits.walInode;
  for (let round = 0; round < 3; round++) {
    const other = openSqlite(file);
    other.exec('PRAGMA journal_size_limit = 0');
    other.prepare('INSERT INTO t (text) VALUES (?)').run(`other ${round}`);
    other.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    other.close();
    await commits.submit(`mine ${round}`);
    t.equal(statSync(`${file}-wal`).ino, inode, `round ${round}: same file`);
  }
});
