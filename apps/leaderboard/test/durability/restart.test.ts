import { rmSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { READ, startLeaderboard, tempDataDir, WRITE } from '../helpers/app.ts';

async function post(lb: Awaited<ReturnType<typeof startLeaderboard>>, user_id: string, points: number) {
  const res = await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id, points } });
  if (res.statusCode !== 200) throw new Error(res.body);
}

async function top(lb: Awaited<ReturnType<typeof startLeaderboard>>) {
  return (await lb.call('GET', '/v1/scores?limit=100', { scopes: READ })).json().data;
}

t.test('scores survive a graceful restart (restored from the checkpoint)', async (t) => {
  const dataDir = tempDataDir(t);
  const lb = await startLeaderboard(t, { dataDir });
  for (let i = 0; i < 50; i++) await post(lb, `u${i % 7}`, (i % 3) + 1);
  const before = await top(lb);
  await lb.close();
  const again = await startLeaderboard(t, { dataDir });
  t.same(await top(again), before);
});

t.test('the ranking is rebuilt from the win log when its checkpoint is missing', async (t) => {
  const dataDir = tempDataDir(t);
  const lb = await startLeaderboard(t, { dataDir });
  for (let i = 0; i < 50; i++) await post(lb, `u${i % 7}`, (i % 3) + 1);
  const before = await top(lb);
  await lb.close();
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(join(dataDir, 'leaderboard', `ranking.db${suffix}`), { force: true });
  }
  const again = await startLeaderboard(t, { dataDir });
  t.same(await top(again), before);
});

t.test('wins after the last checkpoint are replayed over it (a stale checkpoint)', async (t) => {
  const dataDir = tempDataDir(t);
  const lb = await startLeaderboard(t, { dataDir, env: { LEADERBOARD_TIE_BREAK: 'earliest' } });
  for (let i = 0; i < 30; i++) await post(lb, `u${i % 5}`, 1);
  await lb.instance.ports.checkpoint();
  for (let i = 0; i < 30; i++) await post(lb, `u${i % 4}`, 2);
  const before = await top(lb);
  // Simulate a crash after the checkpoint: copy the files as they are, without a final save.
  const { cpSync } = await import('node:fs');
  const crashed = tempDataDir(t);
  cpSync(dataDir, crashed, { recursive: true });
  const again = await startLeaderboard(t, { dataDir: crashed, env: { LEADERBOARD_TIE_BREAK: 'earliest' } });
  t.same(await top(again), before);
});

t.test(
  'a checkpoint whose last commits were lost (entries saved, their covered seq not) replays to the same ranking',
  async (t) => {
    // Checkpoints are committed without fsync: a crash may keep a checkpoint's entries and lose
    // the commit that moves its covered seq. The replay then starts before wins the entries hold.
    for (const tieBreak of ['shared', 'earliest']) {
      const dataDir = tempDataDir(t);
      const env = { LEADERBOARD_TIE_BREAK: tieBreak };
      const lb = await startLeaderboard(t, { dataDir, env });
      for (let i = 0; i < 30; i++) await post(lb, `u${i % 5}`, 1);
      await lb.instance.ports.checkpoint();
      const ranking = join(dataDir, 'leaderboard', 'ranking.db');
      const { DatabaseSync } = await import('node:sqlite');
      const read = new DatabaseSync(ranking);
      const covered = Number(read.prepare('SELECT applied_seq FROM ranking_checkpoints').get()!.applied_seq);
      read.close();
      for (let i = 0; i < 30; i++) await post(lb, `u${i % 4}`, 2);
      await lb.instance.ports.checkpoint();
      const before = await top(lb);
      const { cpSync } = await import('node:fs');
      const crashed = tempDataDir(t);
      cpSync(dataDir, crashed, { recursive: true });
      const lost = new DatabaseSync(join(crashed, 'leaderboard', 'ranking.db'));
      lost.prepare('UPDATE ranking_checkpoints SET applied_seq = ?').run(covered);
      const ahead = lost.prepare('SELECT COUNT(*) AS n FROM ranking_entries WHERE seq > ?').get(covered)!.n;
      t.ok(Number(ahead) > 0, 'the saved entries hold wins after the covered seq');
      lost.close();
      const again = await startLeaderboard(t, { dataDir: crashed, env });
      t.same(await top(again), before, tieBreak);
    }
  },
);
