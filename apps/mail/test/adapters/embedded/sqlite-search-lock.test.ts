/**
 * R5: the indexer's write of new copies (addNew) must not hold the consumer thread, where the
 * worker files mail, while another connection (another process's indexer) holds search.db's
 * write lock: it fails fast (the copies stay on the backlog), and the lock is still held when it does.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { openSqlite } from '@tessera/kit/sqlite';
import { SqliteSearchIndex } from '../../../src/adapters/embedded/sqlite-search-index.ts';
import type { SearchDocument } from '../../../src/core/events.ts';
import { parseSearchQuery } from '../../../src/core/search-query.ts';

/**
 * Holds BEGIN IMMEDIATE on the file until told to let go (state[0] = 1), or for at most 2 s, well
 * under the connection's 5 s busy timeout: a blocking addNew would then get the lock and succeed.
 * state[1] = 1 once the lock is released.
 */
const HOLDER = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const state = new Int32Array(workerData.shared);
const db = new DatabaseSync(workerData.file);
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('locked');
Atomics.wait(state, 0, 0, 2000);
db.exec('COMMIT');
Atomics.store(state, 1, 1);
db.close();
`;

function doc(emailId: string): SearchDocument {
  return {
    user_id: 'alice',
    email_id: emailId,
    folder_id: 'inbox',
    from: { name: 'Bob', email: 'bob@remote.test' },
    to: [{ name: '', email: 'alice@tessera.local' }],
    cc: [],
    subject: 'Locked out',
    body: 'hello',
    is_read: false,
    has_attachment: false,
    received_at: Date.UTC(2026, 0, 1),
  };
}

t.test('addNew fails fast while another connection holds the write lock', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mail-search-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'search.db');
  const db = openSqlite(file);
  t.teardown(() => db.close());
  const search = new SqliteSearchIndex(db);

  const shared = new SharedArrayBuffer(8);
  const state = new Int32Array(shared);
  const holder = new Worker(HOLDER, { eval: true, workerData: { file, shared } });
  const exited = once(holder, 'exit');
  const [first] = (await once(holder, 'message')) as [string];
  t.equal(first, 'locked');

  const outcome = await search.addNew([doc('01900000-0000-7000-8000-000000000001')]).then(
    () => 'written',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  t.match(outcome, /locked|busy/i, 'addNew gave up with SQLITE_BUSY');
  t.equal(Atomics.load(state, 1), 0, 'the other connection still held the lock when it did');

  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  await exited;
  t.equal(Atomics.load(state, 1), 1);

  // The connection's own timeout is back, and the index writes once the lock is free.
  t.equal((db.prepare('PRAGMA busy_timeout').get() as { timeout: number }).timeout, 5000);
  await search.addNew([doc('01900000-0000-7000-8000-000000000002')]);
  const hits = await search.search('alice', parseSearchQuery('locked'), { limit: 10 });
  t.same(
    hits.map((h) => h.email_id),
    ['01900000-0000-7000-8000-000000000002'],
  );
});
