import { mkdtempSync, rmSync } from 'node:fs';
import { fdatasync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqlite, SqliteGroupCommit, type SyncFile } from '../src/sqlite.ts';

/** A table of texts; a group is one transaction, answering the rowids; syncs wait for the test. */
function open(t: Test, fail?: () => boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'kit-group-commit-then-'));
  const file = join(dir, 'x.db');
  const db = openSqlite(file);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (text) VALUES (?) RETURNING id');
  const syncs: Array<() => void> = [];
  const sync: SyncFile = (fd, done) => {
    syncs.push(() =>
      fail?.() === true
        ? done(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }))
        : fdatasync(fd, done),
    );
  };
  const commits = new SqliteGroupCommit<string, number>({
    db,
    file,
    sync,
    commit(texts) {
      db.exec('BEGIN IMMEDIATE');
      const ids = texts.map((text) => (insert.get(text) as { id: number }).id);
      db.exec('COMMIT');
      return ids;
    },
  });
  t.teardown(async () => {
    for (const go of syncs.splice(0)) go();
    await commits.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { commits, syncs };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

t.test('submitThen: told after the sync, in one group with promises, never at once', async (t) => {
  const { commits, syncs } = open(t);
  const told: Array<[unknown, number | undefined]> = [];
  commits.submitThen('a', (error, id) => told.push([error, id]));
  const b = commits.submit('b');
  commits.submitThen('c', (error, id) => told.push([error, id]));
  t.same(told, [], 'not told before the commit');
  await turn();
  t.equal(syncs.length, 1, 'one group, one sync');
  t.same(told, [], 'committed, not yet synced: nobody told');
  syncs[0]!();
  t.equal(await b, 2, 'the promise of the same group');
  t.same(
    told,
    [
      [undefined, 1],
      [undefined, 3],
    ],
    'each callback once, with its result',
  );
});

t.test('submitThen: a failed sync is told to callbacks, and so is every item after', async (t) => {
  let fail = false;
  const { commits, syncs } = open(t, () => fail);
  const told: unknown[] = [];
  commits.submitThen('a', (error) => told.push(error));
  await turn();
  fail = true;
  syncs[0]!();
  await new Promise<void>((resolve) => {
    const wait = () => (told.length > 0 ? resolve() : setImmediate(wait));
    wait();
  });
  t.match(told, [{ message: /fdatasync of the WAL failed.*EIO/ }]);
  let later: unknown;
  commits.submitThen('b', (error) => (later = error));
  t.equal(later, undefined, 'a refusal at submit is not told before submitThen returns');
  await Promise.resolve();
  t.match(later, { message: /fdatasync of the WAL failed/ });
});

t.test('submitThen: a closed group commit refuses, later', async (t) => {
  const { commits } = open(t);
  await commits.close();
  let told: unknown;
  commits.submitThen('late', (error) => (told = error));
  t.equal(told, undefined);
  await Promise.resolve();
  t.match(told, { message: /closed/ });
});
