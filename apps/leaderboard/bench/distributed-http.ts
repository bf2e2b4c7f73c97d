/**
 * The distributed leaderboard through nginx: two `tessera run leaderboard api` processes on the
 * shared NATS (JetStream), Redis and Cassandra (REDIS_URL, NATS_URL, CASSANDRA_URL; in names of
 * the run's own, removed afterwards), nginx of the benchmark's own in front, wrk through it:
 * score updates and rank reads for BENCH_SECONDS (default 8) each. In the same run, on the same
 * Redis, `redis-benchmark` ZINCRBY and ZREVRANK: the ratio of the two is the figure (the goal is
 * 0.4 of raw Redis through HTTP, auth and the durable log). Skipped when the servers are not given.
 * The phases are in distributed-phases.ts, the report in distributed-report.ts.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken } from '@tessera/kit';
import { freePort } from '@tessera/testkit';
import { parseCassandraUrl } from '../src/adapters/cassandra/cassandra-url.ts';
import { runPhases } from './distributed-phases.ts';
import { report } from './distributed-report.ts';
import { startNginx, untilAnswering } from './nginx-front.ts';
import { startNode, stop } from './node-process.ts';
import { childrenOf, listeningPid, type ProcessGroups } from './process-cpu.ts';
import { machine } from './report.ts';
import { dropNames, namesEnv } from './run-names.ts';

const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
const MAIN = fileURLToPath(new URL('../../tessera/src/main.ts', import.meta.url));
const ENSURE_WRK = fileURLToPath(new URL('../../../tools/ensure-wrk.sh', import.meta.url));
const BASELINE = fileURLToPath(new URL('../../../packages/testkit/src/baseline-server.ts', import.meta.url));

const { NATS_URL, REDIS_URL, CASSANDRA_URL } = process.env;
if (NATS_URL === undefined || REDIS_URL === undefined || CASSANDRA_URL === undefined) {
  console.log(
    'distributed HTTP benchmark skipped: set NATS_URL, REDIS_URL and CASSANDRA_URL (e.g. tools/backends.sh up)',
  );
  process.exit(0);
}
execFileSync('bash', [ENSURE_WRK], { stdio: 'inherit' });
const ns = `bench_${Date.now().toString(36)}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  AUTH_JWT_SECRET: SECRET,
  RATE_LIMIT_ENABLED: 'false',
  ...namesEnv(ns),
  LEADERBOARD_MIGRATE: 'true',
};
const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-dist-'));
const children: ChildProcess[] = [];
try {
  const apis = [
    await startNode([MAIN, 'run', 'leaderboard', 'api'], { ...env, DATA_DIR: join(dir, 'a') }),
    await startNode([MAIN, 'run', 'leaderboard', 'api'], { ...env, DATA_DIR: join(dir, 'b') }),
  ];
  children.push(...apis.map((api) => api.child));
  // The ceiling: bare node:http behind the same nginx, as many processes as the api has.
  const baselines = [await startNode([BASELINE], process.env), await startNode([BASELINE], process.env)];
  children.push(...baselines.map((baseline) => baseline.child));
  const port = await freePort();
  const baselinePort = await freePort();
  const nginx = startNginx(dir, [
    { port, upstreams: apis.map((api) => new URL(api.url).host) },
    { port: baselinePort, upstreams: baselines.map((baseline) => new URL(baseline.url).host) },
  ]);
  children.push(nginx);
  const url = `http://127.0.0.1:${port}`;
  await untilAnswering(url);
  console.log(
    `distributed leaderboard through nginx · ${machine()} · load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const pids = (list: ReadonlyArray<{ child: ChildProcess }>) => list.map(({ child }) => child.pid!);
  const server = (url: string) => {
    const pid = listeningPid(Number(new URL(url).port));
    return pid === undefined ? [] : [pid];
  };
  const nginxPids = [nginx.pid!, ...childrenOf(nginx.pid!)];
  const redisPids = server(REDIS_URL);
  const ourPath: ProcessGroups = {
    api: pids(apis),
    nginx: nginxPids,
    nats: server(NATS_URL.split(',')[0]!),
    redis: redisPids,
    cassandra: server(`tcp://${parseCassandraUrl(CASSANDRA_URL).contactPoints[0]}`),
    wrk: 'reaped',
  };
  const token = await mintToken({ secret: SECRET, sub: 'bench', scopes: ['scores:write', 'scores:read'] });
  report(
    runPhases({
      dir,
      url,
      baselineUrl: `http://127.0.0.1:${baselinePort}`,
      token,
      ourPath,
      baselinePath: { node: pids(baselines), nginx: nginxPids, wrk: 'reaped' },
      redisUrl: REDIS_URL,
      redisPids,
      redisKey: `${ns}:redis-benchmark`,
    }),
  );
} finally {
  for (const child of children.reverse()) await stop(child);
  // The run's names on the shared servers go with it.
  await dropNames(ns, { NATS_URL, REDIS_URL, CASSANDRA_URL });
  rmSync(dir, { recursive: true, force: true });
}
