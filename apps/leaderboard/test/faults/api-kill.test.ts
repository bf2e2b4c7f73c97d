// An api process killed with kill -9 mid-load: the other keeps serving (every win is acknowledged
// through it, retries with the same match_id); a new process started in its place misses nothing,
// and nothing counts twice.
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { SECRET } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { runLoad } from '../helpers/load.ts';
import { startApiProcess } from '../helpers/process.ts';

t.setTimeout(900_000);

const { env: shared } = await distributedServers(t, 'api_kill');
const env = {
  ...shared,
  AUTH_JWT_SECRET: SECRET,
  LEADERBOARD_WRITE_LIMIT_PER_MINUTE: '1000000',
  LEADERBOARD_READ_LIMIT_PER_MINUTE: '1000000',
};
const apis = await Promise.all([
  startApiProcess({ ...env, DATA_DIR: tempDir(t) }),
  startApiProcess({ ...env, DATA_DIR: tempDir(t) }),
]);
t.teardown(() => Promise.all(apis.map((api) => api.stop())));
const headers = await authHeaders(SECRET)(['scores:read']);

async function scores(url: string): Promise<Map<string, number>> {
  const top = (await (await fetch(`${url}/v1/scores?limit=100`, { headers })).json()) as {
    data: Array<{ user_id: string; score: number }>;
  };
  return new Map(top.data.map((e) => [e.user_id, e.score]));
}

t.test('kill -9 of one api mid-load', async (t) => {
  const [victim, survivor] = apis;
  const load = await runLoad({
    urls: apis.map((api) => api.url),
    secret: SECRET,
    wins: 300,
    users: 8,
    workers: 4,
    prefix: 'api-kill',
    winDeadlineMs: 60_000,
    onAcknowledged(count) {
      if (count === 100) victim.child.kill('SIGKILL');
    },
  });
  t.equal(load.acknowledged, 300, 'every win acknowledged, after the kill through the survivor');
  t.equal((await victim.stop()).signal, 'SIGKILL');
  t.same(await scores(survivor.url), load.expected, 'the survivor counted each once');

  const restarted = await startApiProcess({ ...env, DATA_DIR: tempDir(t) });
  t.teardown(() => restarted.stop());
  t.same(await scores(restarted.url), load.expected, 'its replacement misses nothing');
});
