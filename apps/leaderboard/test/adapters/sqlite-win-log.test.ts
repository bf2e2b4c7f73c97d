import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import t from 'tap';
import { SqliteWinLog } from '../../src/adapters/embedded/sqlite-win-log.ts';
import type { Win } from '../../src/core/win.ts';
import { tempDataDir } from '../helpers/app.ts';

function openLog(t: Parameters<typeof tempDataDir>[0], dir = tempDataDir(t)) {
  const db = openSqlite(join(dir, 'wins.db'));
  const log = new SqliteWinLog(db);
  return { db, log, dir };
}

const win = (userId: string, points = 1, matchId?: string) => ({
  period: '2026-11',
  userId,
  points,
  matchId,
  at: 1,
});

t.test('appends in one event-loop turn share one commit and get consecutive seqs', async (t) => {
  const { log, db } = openLog(t);
  const statements: string[] = [];
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    statements.push(sql);
    exec(sql);
  };
  const results = await Promise.all([log.append(win('a')), log.append(win('b')), log.append(win('c'))]);
  t.same(
    results.map((r) => r.win.seq),
    [1, 2, 3],
  );
  t.same(statements, ['BEGIN IMMEDIATE', 'COMMIT'], 'one transaction for the three appends');
  db.close();
});

t.test(
  'a match id seen before appends nothing and returns the original, also within one batch',
  async (t) => {
    const { log, db } = openLog(t);
    const first = await log.append(win('a', 3, 'm1'));
    const [again, sameBatch, other] = await Promise.all([
      log.append(win('a', 3, 'm1')),
      log.append(win('b', 2, 'm2')),
      log.append(win('b', 2, 'm2')),
    ]);
    t.equal(again.duplicate, true);
    t.same(again.win, first.win);
    t.equal(sameBatch.duplicate, false);
    t.equal(other.duplicate, true);
    t.equal(other.win.seq, sameBatch.win.seq);
    t.equal(await log.lastSeq('2026-11'), 2);
    db.close();
  },
);

t.test('read replays a period in seq order after a given seq; periods are remembered', async (t) => {
  const dir = tempDataDir(t);
  const { log, db } = openLog(t, dir);
  for (let i = 0; i < 25; i++) await log.append({ ...win(`u${i}`), period: i % 2 ? '2026-11' : '2026-10' });
  db.close();
  const reopened = openLog(t, dir);
  const read: Win[] = [];
  for await (const batch of reopened.log.read('2026-11', 10)) read.push(...batch);
  t.same(
    read.map((w) => w.seq),
    [12, 14, 16, 18, 20, 22, 24],
  );
  t.same(await reopened.log.periods(), ['2026-10', '2026-11']);
  t.equal((await reopened.log.append(win('z'))).win.seq, 26, 'seqs continue after a restart');
  reopened.db.close();
});

t.test('a failed commit rejects every append of the batch and reuses nothing', async (t) => {
  const { log, db } = openLog(t);
  await log.append(win('a'));
  db.exec(
    'CREATE TRIGGER fail BEFORE INSERT ON wins WHEN NEW.user_id = "boom" BEGIN SELECT RAISE(ABORT, "disk on fire"); END',
  );
  const results = await Promise.allSettled([log.append(win('ok')), log.append(win('boom'))]);
  t.same(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  db.exec('DROP TRIGGER fail');
  t.equal((await log.append(win('after'))).win.seq, 2, 'the failed batch left no gap');
  db.close();
});
