import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, transaction } from '../src/sqlite.ts';

function pragma(db: ReturnType<typeof openSqlite>, name: string): unknown {
  return Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];
}

t.test('openSqlite creates the directory and applies the pragmas', async (t) => {
  const file = join(t.testdir(), 'deep', 'dir', 'test.db');
  const db = openSqlite(file);
  t.teardown(() => db.close());
  t.ok(existsSync(file));
  t.equal(pragma(db, 'journal_mode'), 'wal');
  t.equal(pragma(db, 'synchronous'), 2, 'FULL');
  t.equal(pragma(db, 'busy_timeout'), 5000);
  t.equal(pragma(db, 'foreign_keys'), 1);
  const normal = openSqlite(join(t.testdir(), 'n.db'), { synchronous: 'normal' });
  t.teardown(() => normal.close());
  t.equal(pragma(normal, 'synchronous'), 1, 'NORMAL');
});

t.test('transaction commits on return and rolls back on throw', async (t) => {
  const db = openSqlite(join(t.testdir(), 'tx.db'));
  t.teardown(() => db.close());
  db.exec('CREATE TABLE scores (id INTEGER PRIMARY KEY, points INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO scores (points) VALUES (?)');
  const count = () => Number(db.prepare('SELECT count(*) AS n FROM scores').get()?.['n']);

  t.equal(
    transaction(db, () => {
      insert.run(1);
      insert.run(2);
      return 'done';
    }),
    'done',
  );
  t.equal(count(), 2);

  t.throws(
    () =>
      transaction(db, () => {
        insert.run(3);
        throw new Error('abort');
      }),
    /abort/,
  );
  t.equal(count(), 2, 'rolled back');
  t.notOk(db.isTransaction);

  transaction(db, () => {
    insert.run(4);
    t.throws(() =>
      transaction(db, () => {
        insert.run(5);
        throw new Error('inner');
      }),
    );
    t.ok(db.isTransaction, 'the outer transaction survives');
  });
  t.equal(count(), 3, 'only the inner work was undone');
});

t.test('foreign keys are enforced', async (t) => {
  const db = openSqlite(':memory:');
  t.teardown(() => db.close());
  db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (a_id INTEGER REFERENCES a(id))');
  t.throws(() => db.exec('INSERT INTO b VALUES (99)'), /FOREIGN KEY/);
});
