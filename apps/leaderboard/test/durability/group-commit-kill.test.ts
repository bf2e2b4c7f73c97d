// The win log's group commit (GroupCommitWinLog: commit on the event loop, fdatasync of the WAL on
// libuv's pool) against kill -9 over HTTP: an update is answered 200 only after the sync that
// covers its commit, so every answered update must be in the log and the ranking after a restart,
// once; one sent but not answered may be there or not, once at most.
import { join } from 'node:path';
import { mintToken, openSqlite } from '@tessera/kit';
import t from 'tap';
import { SECRET, tempDataDir } from '../helpers/app.ts';
import { startApiProcess, waitForExit } from '../helpers/process.ts';

t.setTimeout(300_000);

const USERS = 30;
const WORKERS = 32;

interface Sent {
  readonly user: string;
  readonly points: number;
}

t.test('kill -9 mid-stream: every answered update is in the log and the ranking, once', async (t) => {
  const dataDir = tempDataDir(t);
  const env = { DATA_DIR: dataDir, AUTH_JWT_SECRET: SECRET, RATE_LIMIT_ENABLED: 'false', DATA_FSYNC: 'true' };
  const token = await mintToken({ secret: SECRET, sub: 'game-1', scopes: ['scores:write', 'scores:read'] });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sent = new Map<string, Sent>();
  const acked = new Set<string>();
  let next = 0;
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };

  for (let round = 1; round <= 3; round++) {
    const server = await startApiProcess(env);
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const matchId = `m-${next++}`;
        const update = { user: `player-${random(USERS)}`, points: 1 + random(5) };
        sent.set(matchId, update);
        try {
          const res = await fetch(`${server.url}/v1/scores`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ user_id: update.user, points: update.points, match_id: matchId }),
          });
          await res.text();
          if (res.status === 200) acked.add(matchId);
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);
    await new Promise((resolve) => setTimeout(resolve, 400 + random(600)));
    server.child.kill('SIGKILL');
    const exit = await waitForExit(server.child);
    stop = true;
    await Promise.all(workers);
    t.equal(exit.signal, 'SIGKILL', `round ${round}: killed mid-stream`);

    const restarted = await startApiProcess(env);
    const scores = new Map<string, number>();
    try {
      for (let u = 0; u < USERS; u++) {
        const res = await fetch(`${restarted.url}/v1/scores/player-${u}`, { headers });
        const body = (await res.json()) as { user_info?: { score: number } };
        scores.set(`player-${u}`, res.status === 200 ? body.user_info!.score : 0);
      }
    } finally {
      restarted.child.kill('SIGKILL');
      await waitForExit(restarted.child);
    }

    const db = openSqlite(join(dataDir, 'leaderboard', 'wins.db'));
    const rows = db.prepare('SELECT match_id, user_id, points FROM wins').all() as Array<{
      match_id: string;
      user_id: string;
      points: number;
    }>;
    db.close();
    const logged = new Map<string, number>();
    const inLog = new Map<string, number>();
    let foreign = 0;
    for (const row of rows) {
      logged.set(row.match_id, (logged.get(row.match_id) ?? 0) + 1);
      inLog.set(row.user_id, (inLog.get(row.user_id) ?? 0) + row.points);
      const update = sent.get(row.match_id);
      if (update === undefined || update.user !== row.user_id || update.points !== row.points) foreign++;
    }
    const lost = [...acked].filter((matchId) => !logged.has(matchId));
    const twice = [...logged].filter(([, n]) => n > 1);
    t.same(
      lost,
      [],
      `round ${round}: all ${acked.size} answered updates are in the log (${rows.length} rows)`,
    );
    t.same(twice, [], `round ${round}: none is there twice`);
    t.equal(foreign, 0, `round ${round}: the log holds only what was sent`);
    const ranked = [...scores].filter(([user, score]) => score !== (inLog.get(user) ?? 0));
    t.same(ranked, [], `round ${round}: each player's score is the sum of their wins in the log`);
  }
  t.ok(acked.size > 100, `the load was real: ${acked.size} answered updates`);
});
