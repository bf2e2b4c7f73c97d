import { mintToken } from '@tessera/kit';
import t from 'tap';
import { SECRET, tempDataDir } from '../helpers/app.ts';
import { startApiProcess, waitForExit } from '../helpers/process.ts';

// Four kill-and-restart rounds of real processes: more than tap's default 30 s on a busy machine.
t.setTimeout(600_000);

const USERS = 40;
const WORKERS = 16;

/**
 * kill -9 at a random moment under load, restart on the same data, and check that every
 * acknowledged win is in the ranking. A win that was sent but not acknowledged may or may not
 * be there; nothing else may be.
 */
t.test('kill -9 under load loses no acknowledged score', async (t) => {
  const dataDir = tempDataDir(t);
  const env = {
    DATA_DIR: dataDir,
    AUTH_JWT_SECRET: SECRET,
    // Frequent checkpoints, so that kills also land during and between them.
    LEADERBOARD_CHECKPOINT_INTERVAL_MS: '100',
    RATE_LIMIT_ENABLED: 'false',
  };
  const token = await mintToken({ secret: SECRET, sub: 'game-1', scopes: ['scores:write', 'scores:read'] });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const acked = new Map<string, number>();
  const sent = new Map<string, number>();
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };

  for (let round = 1; round <= 4; round++) {
    const server = await startApiProcess(env);
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const user = `player-${random(USERS)}`;
        const points = 1 + random(5);
        sent.set(user, (sent.get(user) ?? 0) + points);
        try {
          const res = await fetch(`${server.url}/v1/scores`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ user_id: user, points }),
          });
          if (res.status === 200) acked.set(user, (acked.get(user) ?? 0) + points);
          else await res.text();
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);
    await new Promise((resolve) => setTimeout(resolve, 300 + random(700)));
    server.child.kill('SIGKILL');
    const exit = await waitForExit(server.child);
    stop = true;
    await Promise.all(workers);
    t.equal(exit.signal, 'SIGKILL', `round ${round}: killed`);

    const restarted = await startApiProcess(env);
    try {
      let missing = 0;
      let extra = 0;
      for (const [user, points] of sent) {
        const res = await fetch(`${restarted.url}/v1/scores/${user}`, { headers });
        const score =
          res.status === 200 ? ((await res.json()) as { user_info: { score: number } }).user_info.score : 0;
        if (score < (acked.get(user) ?? 0)) missing++;
        if (score > points) extra++;
        // From here on, what the server holds is what counts for the next round.
        acked.set(user, score);
        sent.set(user, score);
      }
      t.equal(missing, 0, `round ${round}: every acknowledged point is there`);
      t.equal(extra, 0, `round ${round}: nothing was counted twice or invented`);
    } finally {
      restarted.child.kill('SIGKILL');
      await waitForExit(restarted.child);
    }
  }
  t.ok(
    [...acked.values()].some((score) => score > 0),
    'the load did record wins',
  );
});

t.test('SIGTERM shuts down gracefully: in-flight requests finish, the checkpoint is saved', async (t) => {
  const dataDir = tempDataDir(t);
  const env = { DATA_DIR: dataDir, AUTH_JWT_SECRET: SECRET, LEADERBOARD_CHECKPOINT_INTERVAL_MS: '600000' };
  const token = await mintToken({ secret: SECRET, sub: 'game-1', scopes: ['scores:write', 'scores:read'] });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const server = await startApiProcess(env);
  for (let i = 0; i < 20; i++) {
    await fetch(`${server.url}/v1/scores`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ user_id: `u${i % 3}`, points: 1 }),
    }).then((r) => r.text());
  }
  server.child.kill('SIGTERM');
  const exit = await waitForExit(server.child);
  t.equal(exit.code, 0, 'exit code 0');
  const restarted = await startApiProcess(env);
  try {
    const recovered = restarted.logs
      .map((l) => JSON.parse(l) as { msg?: string; replayed?: number })
      .find((l) => l.msg === 'ranking recovered');
    t.equal(recovered?.replayed, 0, 'nothing to replay: the final checkpoint covered every win');
    const res = await fetch(`${restarted.url}/v1/scores/u0`, { headers });
    t.equal(((await res.json()) as { user_info: { score: number } }).user_info.score, 7);
  } finally {
    restarted.child.kill('SIGKILL');
    await waitForExit(restarted.child);
  }
});
