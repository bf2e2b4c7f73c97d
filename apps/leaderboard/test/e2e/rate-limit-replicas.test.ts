// Two `api` processes on one Redis (REDIS_URL): a caller's budget is shared, not doubled. Reads
// alternate between the replicas; the limit is reached after LEADERBOARD_READ_LIMIT_PER_MINUTE
// of them in all, and then both refuse.
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { SECRET } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';
import { startApiProcess } from '../helpers/process.ts';

t.setTimeout(900_000);

const LIMIT = 6;
const { env } = await distributedServers(t, 'ratelimit');
const processEnv = {
  ...env,
  AUTH_JWT_SECRET: SECRET,
  LEADERBOARD_READ_LIMIT_PER_MINUTE: String(LIMIT),
  RATE_LIMIT_REDIS_PREFIX: `${env.LEADERBOARD_REDIS_PREFIX!}rate-limit:`,
};
const replicas = await Promise.all([
  startApiProcess({ ...processEnv, DATA_DIR: tempDir(t) }),
  startApiProcess({ ...processEnv, DATA_DIR: tempDir(t) }),
]);
t.teardown(() => Promise.all(replicas.map((replica) => replica.stop())));
const headers = await authHeaders(SECRET)(['scores:read']);

async function read(replica: number): Promise<{ status: number; remaining: string | null }> {
  const response = await fetch(`${replicas[replica]!.url}/v1/scores`, { headers });
  await response.arrayBuffer();
  return { status: response.status, remaining: response.headers.get('x-rate-limit-remaining') };
}

t.test('a caller has one budget across both replicas', async (t) => {
  const answers = [];
  for (let i = 0; i < LIMIT; i++) answers.push(await read(i % 2));
  t.same(
    answers.map((a) => a.status),
    Array<number>(LIMIT).fill(200),
    'within the limit, both answer',
  );
  t.same(
    answers.map((a) => a.remaining),
    Array.from({ length: LIMIT }, (_, i) => String(LIMIT - 1 - i)),
    "each replica counts the other one's requests",
  );
  t.equal((await read(0)).status, 429, 'then the first refuses');
  t.equal((await read(1)).status, 429, 'and so does the second (a budget per replica would allow it)');
});
