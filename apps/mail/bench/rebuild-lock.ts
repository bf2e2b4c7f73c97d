/**
 * The version 2 rebuild of metadata.db (src/adapters/embedded/sqlite-messages-rebuild.ts): how
 * long it takes and how long each of its write transactions holds the lock other processes
 * wait on (BEGIN IMMEDIATE → COMMIT), the swap's apart. A version 1 file of `count` messages
 * (~4 KB rows over 1,000 users) is written once, then copied and rebuilt `rounds` times.
 * Nothing writes meanwhile: the swap levels no rows here.
 * Usage: node --conditions=development bench/rebuild-lock.ts [count] [rounds]
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit/sqlite';
import { rebuildMessages } from '../src/adapters/embedded/sqlite-messages-rebuild.ts';
import { messagesIndexes, messagesTable } from '../src/adapters/embedded/sqlite-metadata-rows.ts';

const count = Number(process.argv[2] ?? 50_000);
const rounds = Number(process.argv[3] ?? 3);

const V1 = `CREATE TABLE messages (user_id TEXT NOT NULL, email_id TEXT NOT NULL,
  folder_id TEXT NOT NULL, thread_id TEXT NOT NULL, is_read INTEGER NOT NULL,
  received_at INTEGER NOT NULL, summary TEXT NOT NULL, doc TEXT NOT NULL,
  PRIMARY KEY (user_id, email_id)) WITHOUT ROWID;
CREATE INDEX messages_folder ON messages (user_id, folder_id, email_id);
CREATE INDEX messages_read ON messages (user_id, folder_id, is_read, email_id);
CREATE INDEX messages_thread ON messages (user_id, thread_id, email_id);`;

function writeV1(path: string): void {
  const db = openSqlite(path);
  db.exec(V1);
  const insert = db.prepare('INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  db.exec('BEGIN');
  for (let i = 0; i < count; i++) {
    const emailId = `${String(i).padStart(8, '0')}-0000-7000-8000-000000000000`;
    const summary = JSON.stringify({ subject: `s${i}` });
    const doc = JSON.stringify({ body: `${'b'.repeat(3900)} ${i}` });
    insert.run(
      `u${i % 1000}`,
      emailId,
      i % 4 === 0 ? 'archive' : 'inbox',
      `t${i % 97}`,
      i % 2,
      i,
      summary,
      doc,
    );
  }
  db.exec('COMMIT');
  db.close();
}

/** Times every transaction `db` runs from now on (ms); the swap's is the one that renames. */
function timeTransactions(db: DatabaseSync): { all: number[]; swap: number[] } {
  const times = { all: [] as number[], swap: [] as number[] };
  const exec = db.exec.bind(db);
  let began = 0;
  let renames = false;
  db.exec = (sql: string): void => {
    if (sql === 'BEGIN IMMEDIATE') began = performance.now();
    if (sql.includes('RENAME TO')) renames = true;
    exec(sql);
    if (sql !== 'COMMIT' && sql !== 'ROLLBACK') return;
    const held = performance.now() - began;
    times.all.push(held);
    if (renames) times.swap.push(held);
    renames = false;
  };
  return times;
}

const dir = mkdtempSync(join(tmpdir(), 'tessera-mail-rebuild-'));
const v1 = join(dir, 'v1.db');
writeV1(v1);
const load = [loadavg()[0] ?? 0];
const runs = [];
for (let round = 0; round < rounds; round++) {
  const path = join(dir, 'metadata.db');
  copyFileSync(v1, path);
  const db = openSqlite(path);
  const times = timeTransactions(db);
  const started = performance.now();
  rebuildMessages(db, { table: messagesTable, indexes: messagesIndexes, batch: 1000 });
  const totalMs = performance.now() - started;
  db.close();
  rmSync(path, { force: true });
  runs.push({
    total_s: Number((totalMs / 1000).toFixed(2)),
    transactions: times.all.length,
    longest_ms: Math.round(Math.max(...times.all)),
    swap_ms: times.swap.map(Math.round),
  });
}
load.push(loadavg()[0] ?? 0);
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({ messages: count, load_average_1m: load.map((l) => Number(l.toFixed(1))), runs }, null, 2),
);
