import t, { type Test } from 'tap';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit/sqlite';
import { GroupWrites } from '../../../src/adapters/embedded/group-writes.ts';
import { tempDir } from '../../helpers/mail.ts';

function open(t: Test, file: string): DatabaseSync {
  const db = openSqlite(file);
  t.teardown(() => {
    if (db.isOpen) db.close();
  });
  db.exec('CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
  return db;
}

t.test('the writes of one turn share one transaction; each resolves once committed', async (t) => {
  const file = join(tempDir(t), 'g.db');
  const db = open(t, file);
  const group = new GroupWrites(db);
  const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
  // Another connection sees nothing of the group before its promises resolve, all of it after.
  const reader = new DatabaseSync(file);
  t.teardown(() => reader.close());
  const count = (): number => (reader.prepare('SELECT count(*) AS n FROM kv').get() as { n: number }).n;
  const writes = ['a', 'b', 'c'].map((k, i) => group.run(() => Number(insert.run(k, i).changes)));
  t.equal(count(), 0, 'nothing is written before the group runs');
  t.same(await Promise.all(writes), [1, 1, 1], 'each write gets its own result');
  t.equal(count(), 3);
  t.same(group.stats, { commits: 1, writes: 3 }, 'one COMMIT for the three writes');
  await group.run(() => insert.run('d', 3));
  t.same(group.stats, { commits: 2, writes: 4 }, 'a later turn is a group of its own');
});

t.test('a failing write is undone alone; the others of its group commit', async (t) => {
  const db = open(t, join(tempDir(t), 'g.db'));
  const group = new GroupWrites(db);
  const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
  await group.run(() => insert.run('taken', 0));
  const results = await Promise.allSettled([
    group.run(() => insert.run('x', 1)),
    group.run(() => insert.run('taken', 2)),
    group.run(() => {
      insert.run('y', 3);
      throw new Error('changed its mind');
    }),
    group.run(() => insert.run('z', 4)),
  ]);
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
  );
  t.match(results[1], { reason: /UNIQUE/ });
  t.match(results[2], { reason: /changed its mind/ });
  t.same(
    db
      .prepare('SELECT k FROM kv ORDER BY k')
      .all()
      .map((r) => r.k),
    ['taken', 'x', 'z'],
    'the statement before the throw is undone with its write',
  );
});

t.test('a write alone in its group that throws leaves nothing behind', async (t) => {
  const db = open(t, join(tempDir(t), 'g.db'));
  const group = new GroupWrites(db);
  const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
  await t.rejects(
    group.run(() => {
      insert.run('half', 1);
      throw new Error('changed its mind');
    }),
    /changed its mind/,
  );
  t.same(db.prepare('SELECT k FROM kv').all(), []);
  t.equal(db.isTransaction, false);
  t.equal(await group.run(() => Number(insert.run('next', 2).changes)), 1, 'the next group commits');
});

t.test('when the transaction cannot commit, every write of the group fails', async (t) => {
  const db = open(t, join(tempDir(t), 'g.db'));
  const group = new GroupWrites(db);
  const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
  const writes = [group.run(() => insert.run('a', 1)), group.run(() => insert.run('b', 2))];
  db.close();
  for (const write of writes) await t.rejects(write, /finalized|not open/);
});

t.test('a COMMIT that fails fails every write of its group and leaves no transaction open', async (t) => {
  const db = open(t, join(tempDir(t), 'g.db'));
  // A deferred foreign key is checked at COMMIT: the writes themselves succeed, the COMMIT fails.
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(`CREATE TABLE child (k TEXT REFERENCES kv (k) DEFERRABLE INITIALLY DEFERRED)`);
  const group = new GroupWrites(db);
  const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
  const orphan = db.prepare('INSERT INTO child (k) VALUES (?)');
  const writes = [group.run(() => insert.run('a', 1)), group.run(() => orphan.run('nobody'))];
  for (const write of writes) await t.rejects(write, /FOREIGN KEY/);
  t.equal(db.isTransaction, false);
  t.same(db.prepare('SELECT count(*) AS n FROM kv').get(), { n: 0 }, 'nothing of the group is written');
  await group.run(() => insert.run('b', 2));
  t.same(db.prepare('SELECT k FROM kv').all(), [{ k: 'b' }], 'the next group commits');
});

t.test(
  "yieldWhileBusyMs: a group waits for another connection's lock on the event loop, not in SQLite",
  async (t) => {
    const file = join(tempDir(t), 'g.db');
    const db = open(t, file);
    const other = open(t, file);
    const group = new GroupWrites(db, { yieldWhileBusyMs: 5_000 });
    const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
    other.exec('BEGIN IMMEDIATE');
    other.exec("INSERT INTO kv (k, v) VALUES ('other', 0)");
    const first = group.run(() => insert.run('a', 1));
    // The loop keeps turning while the group waits: timers fire, and later writes join the group.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = group.run(() => insert.run('b', 2));
    // Before a check that nothing happened: under load it can let a failure pass, never fail.
    await new Promise((resolve) => setTimeout(resolve, 30));
    t.same(group.stats, { commits: 0, writes: 0 }, 'nothing committed while the lock is taken');
    t.notOk(db.isTransaction, 'no transaction left open between tries');
    other.exec('COMMIT');
    await Promise.all([first, second]);
    t.same(group.stats, { commits: 1, writes: 2 }, 'one COMMIT once the lock was free');
    t.same(
      db
        .prepare('SELECT k FROM kv ORDER BY v')
        .all()
        .map((r) => r.k),
      ['other', 'a', 'b'],
    );
    await group.run(() => insert.run('c', 3));
    t.same(group.stats, { commits: 2, writes: 3 }, 'a free lock: committed on the next turn as before');
  },
);

t.test('beforeBegin runs once the lock is free, just before the group takes it', async (t) => {
  // The WAL copy-back: frames another connection commits while the group waits must be copied
  // too, or the group's transaction does not start the WAL over.
  const file = join(tempDir(t), 'g.db');
  const db = open(t, file);
  const other = open(t, file);
  const events: string[] = [];
  const group = new GroupWrites(db, {
    yieldWhileBusyMs: 5_000,
    beforeBegin: () => events.push('copy-back'),
  });
  other.exec('BEGIN IMMEDIATE');
  const write = group.run(() => events.push('write'));
  // Before a check that nothing happened: under load it can let a failure pass, never fail.
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.same(events, [], 'not while another connection holds the lock');
  other.exec("INSERT INTO kv (k, v) VALUES ('other', 0); COMMIT");
  await write;
  t.same(events, ['copy-back', 'write'], 'after the wait, right before the write');
});

t.test(
  'a group whose BEGIN finds the lock taken past its wait fails whole and leaves no transaction',
  async (t) => {
    const file = join(tempDir(t), 'g.db');
    const db = open(t, file);
    db.exec('PRAGMA busy_timeout = 4321');
    const group = new GroupWrites(db, { busyTimeoutMs: 0, yieldWhileBusyMs: 5 });
    const insert = db.prepare('INSERT INTO kv (k, v) VALUES (?, ?)');
    const other = new DatabaseSync(file);
    t.teardown(() => other.close());
    other.exec('BEGIN IMMEDIATE');
    const results = await Promise.allSettled([
      group.run(() => insert.run('a', 1)),
      group.run(() => insert.run('b', 2)),
    ]);
    t.same(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
      'every write of the group fails',
    );
    t.match(results[0], { reason: /locked|busy/i });
    t.notOk(db.isTransaction, 'no transaction is left open');
    t.same(group.stats, { commits: 0, writes: 0 }, 'nothing counted as committed');
    t.equal(
      (db.prepare('PRAGMA busy_timeout').get() as { timeout: number }).timeout,
      4321,
      'own timeout restored',
    );
    other.exec('ROLLBACK');
    await group.run(() => insert.run('c', 3));
    t.same(
      db
        .prepare('SELECT k FROM kv ORDER BY k')
        .all()
        .map((r) => r.k),
      ['c'],
      'a later group commits once the lock is free',
    );
  },
);
