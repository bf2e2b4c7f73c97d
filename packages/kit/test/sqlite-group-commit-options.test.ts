import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import t, { type Test } from 'tap';
import { openSqlite, SqliteGroupCommit } from '../src/sqlite.ts';

function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-group-commit-options-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'x.db');
}

function open(t: Test, file: string): DatabaseSync {
  const db = openSqlite(file);
  t.teardown(() => {
    if (db.isOpen) db.close();
  });
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  return db;
}

/** A group commit inserting each text, with the options given; `events` logs hooks and commits. */
function group(db: DatabaseSync, options: { yieldWhileBusyMs?: number; beforeBegin?: () => void }) {
  const insert = db.prepare('INSERT INTO t (text) VALUES (?) RETURNING id');
  const commits: number[] = [];
  const commit = new SqliteGroupCommit<string, number>({
    db,
    durability: 'connection',
    ...options,
    commit(texts) {
      commits.push(texts.length);
      db.exec('BEGIN IMMEDIATE');
      try {
        const ids = texts.map((text) => (insert.get(text) as { id: number }).id);
        db.exec('COMMIT');
        return ids;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
  });
  return { commit, commits };
}

const openFds = (): number => readdirSync('/proc/self/fd').length;
// A turn of the loop to let timers fire (or, before a check that nothing happened, time for it
// to happen): under load it can let a failure pass, never fail a good run.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a constructor that throws leaves no descriptor open', async (t) => {
  const file = tempFile(t);
  const db = open(t, file);
  const before = openFds();
  for (const holdMicros of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
    t.throws(() => new SqliteGroupCommit({ db, file, holdMicros, commit: () => [] }), RangeError);
  }
  t.equal(openFds(), before, 'the WAL was not left open');
});

t.test("durability 'connection': the connection's settings stand, no WAL needed", async (t) => {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  db.exec('PRAGMA wal_autocheckpoint = 500');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const { commit, commits } = group(db, {});
  t.same(await Promise.all([commit.submit('a'), commit.submit('b')]), [1, 2]);
  t.same(commits, [2], 'one group');
  t.same(db.prepare('PRAGMA synchronous').get(), { synchronous: 2 }, 'FULL, as opened');
  t.same(db.prepare('PRAGMA wal_autocheckpoint').get(), { wal_autocheckpoint: 500 });
  t.throws(() => commit.walInode, /no WAL/);
  await commit.close();
});

t.test("yieldWhileBusyMs: a group waits for another connection's lock on the event loop", async (t) => {
  const file = tempFile(t);
  const db = open(t, file);
  const other = open(t, file);
  const { commit, commits } = group(db, { yieldWhileBusyMs: 5_000 });
  other.exec("BEGIN IMMEDIATE; INSERT INTO t (text) VALUES ('other')");
  const first = commit.submit('a');
  // The loop keeps turning while the group waits: timers fire, and later items join the group.
  await pause(30);
  const second = commit.submit('b');
  await pause(30);
  t.same(commits, [], 'nothing committed while the lock is taken');
  t.notOk(db.isTransaction, 'no transaction left open between tries');
  other.exec('COMMIT');
  t.same(await Promise.all([first, second]), [2, 3]);
  t.same(commits, [2], 'one group once the lock was free');
  await commit.submit('c');
  t.same(commits, [2, 1], 'a free lock: committed on the next turn');
  await commit.close();
});

t.test('yieldWhileBusyMs: past it the group waits in SQLite, and fails as without it', async (t) => {
  const file = tempFile(t);
  const db = open(t, file);
  db.exec('PRAGMA busy_timeout = 100');
  const other = open(t, file);
  const { commit } = group(db, { yieldWhileBusyMs: 20 });
  other.exec('BEGIN IMMEDIATE');
  const failure = await commit.submit('a').then(
    () => undefined,
    (error: unknown) => error,
  );
  t.match(failure, { errcode: 5 }, 'SQLITE_BUSY once both waits ran out');
  t.same(db.prepare('PRAGMA busy_timeout').get(), { timeout: 100 }, 'timeout put back');
  other.exec('ROLLBACK');
  t.equal(await commit.submit('b'), 1, 'the next group commits');
  await commit.close();
});

t.test('yieldWhileBusyMs: a closed connection fails the group, not the process', async (t) => {
  const db = open(t, tempFile(t));
  const { commit } = group(db, { yieldWhileBusyMs: 1_000 });
  const write = commit.submit('a');
  db.close();
  await t.rejects(write);
});

t.test('beforeBegin runs after the wait for the lock, right before the commit takes it', async (t) => {
  const file = tempFile(t);
  const db = open(t, file);
  const other = open(t, file);
  const events: string[] = [];
  const { commit } = group(db, {
    yieldWhileBusyMs: 5_000,
    beforeBegin: () => events.push(db.isTransaction ? 'hook in a transaction' : 'hook'),
  });
  other.exec('BEGIN IMMEDIATE');
  const item = commit.submit('a').then(() => events.push('committed'));
  await pause(30);
  t.same(events, [], 'not while another connection holds the lock');
  other.exec('COMMIT');
  await item;
  t.same(events, ['hook', 'committed'], 'once, outside any transaction, then the commit');
  await commit.close();
});
