/**
 * The distributed leaderboard through nginx: two `tessera run leaderboard api` processes on the
 * shared NATS (JetStream), Redis and Cassandra (REDIS_URL, NATS_URL, CASSANDRA_URL; in names of
 * the run's own, removed afterwards), nginx of the benchmark's own in front, wrk through it:
 * score updates and rank reads for BENCH_SECONDS (default 8) each. In the same run, on the same
 * Redis, `redis-benchmark` ZINCRBY and ZREVRANK: the ratio of the two is the figure (the goal is
 * 0.4 of raw Redis through HTTP, auth and the durable log). Skipped when the servers are not given.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { mintToken } from '@tessera/kit';
import cassandra from 'cassandra-driver';
import { Redis } from 'ioredis';
import { parseCassandraUrl } from '../src/adapters/cassandra/cassandra-url.ts';
import { childrenOf, cpuPerRequest, listeningPid, type ProcessGroups } from './process-cpu.ts';
import { machine, printTable, saveResults } from './report.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const SECRET = 'bench-secret-0123456789-0123456789-0123456789';
const MAIN = fileURLToPath(new URL('../../tessera/src/main.ts', import.meta.url));
const ENSURE_WRK = fileURLToPath(new URL('../../../tools/ensure-wrk.sh', import.meta.url));
const BASELINE = fileURLToPath(new URL('../../../packages/testkit/src/baseline-server.ts', import.meta.url));
const REQUESTS = 100_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Starts a Node process that logs `{"msg":"… listening","url":…}` once it listens. */
async function startNode(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--disable-warning=ExperimentalWarning', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { url?: string; msg?: string };
        if (entry.url && entry.msg?.endsWith('listening')) resolve(entry.url);
      } catch {
        // not a log line
      }
    });
  });
  return { url, child };
}

/** One nginx (one worker) in front of every site: a port and the processes it balances over. */
function nginxConf(
  dir: string,
  sites: ReadonlyArray<{ port: number; upstreams: readonly string[] }>,
): string {
  const http = sites
    .map(
      (
        { port, upstreams },
        i,
      ) => `  upstream site${i} { ${upstreams.map((u) => `server ${u};`).join(' ')} keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://site${i}; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }`,
    )
    .join('\n');
  return `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
${http}
}
`;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

interface Figures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

function wrk(
  dir: string,
  url: string,
  token: string,
  title: string,
  request: string,
  seconds: number,
  players = PLAYERS,
): Figures {
  const script = join(dir, `${title.replace(/\W+/g, '-')}.lua`);
  writeFileSync(
    script,
    `
wrk.headers["Authorization"] = "Bearer ${token}"
wrk.headers["Content-Type"] = "application/json"
local players = ${players}
local counter = 0
math.randomseed(11)
local function player(i) return string.format("p%023x", i) end
${request}
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status
  io.write(string.format('{"requests":%d,"us":%d,"errors":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(99)))
end
`,
  );
  const output = execFileSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', script, url], {
    encoding: 'utf8',
  });
  const line = output.split('\n').find((l) => l.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`wrk printed no figures:\n${output}`);
  const raw = JSON.parse(line) as Record<string, number>;
  const figures = {
    requests: raw.requests!,
    perSecond: Math.round((raw.requests! / raw.us!) * 1e6),
    p50: Math.round(raw.p50! / 10) / 100,
    p99: Math.round(raw.p99! / 10) / 100,
    errors: raw.errors!,
  };
  console.log(
    `  ${title}: ${figures.perSecond.toLocaleString('en-US')} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, errors ${figures.errors}`,
  );
  return figures;
}

interface RedisFigures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** redis-benchmark's requests/s and p50 for one command (no pipelining, like the api's calls). */
function redisBenchmark(redisUrl: string, args: readonly string[]): RedisFigures {
  const { hostname, port } = new URL(redisUrl);
  const output = execFileSync(
    'redis-benchmark',
    [
      '-h',
      hostname,
      '-p',
      port,
      '-c',
      String(CONNECTIONS),
      '-n',
      String(REQUESTS),
      '-r',
      String(PLAYERS),
      '--csv',
      ...args,
    ],
    { encoding: 'utf8' },
  );
  // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
  const row = output
    .trim()
    .split('\n')
    .at(-1)!
    .split(',')
    .map((cell) => cell.replaceAll('"', ''));
  const figures = {
    requests: REQUESTS,
    perSecond: Math.round(Number(row[1])),
    p50: Number(row[4]),
    p99: Number(row[6]),
  };
  console.log(
    `  redis-benchmark ${args[0]}: ${figures.perSecond.toLocaleString('en-US')}/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`,
  );
  return figures;
}

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
  LEADERBOARD_STREAM: `${ns}_WINS`,
  LEADERBOARD_STREAM_SUBJECT: `${ns}.wins`,
  LEADERBOARD_MATCH_BUCKET: `${ns}_MATCHES`,
  LEADERBOARD_REDIS_PREFIX: `${ns}:`,
  LEADERBOARD_KEYSPACE: ns,
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
  writeFileSync(
    join(dir, 'nginx.conf'),
    nginxConf(dir, [
      { port, upstreams: apis.map((api) => new URL(api.url).host) },
      { port: baselinePort, upstreams: baselines.map((baseline) => new URL(baseline.url).host) },
    ]),
  );
  const nginx = spawn('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  children.push(nginx);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
  const ourPath: ProcessGroups = {
    api: pids(apis),
    nginx: nginxPids,
    nats: server(NATS_URL.split(',')[0]!),
    redis: server(REDIS_URL),
    cassandra: server(`tcp://${parseCassandraUrl(CASSANDRA_URL).contactPoints[0]}`),
    wrk: 'reaped',
  };
  const token = await mintToken({ secret: SECRET, sub: 'bench', scopes: ['scores:write', 'scores:read'] });
  const seed = `request = function()
  counter = counter + 1
  return wrk.format("POST", "/v1/scores", nil, '{"user_id":"' .. player(counter % players) .. '","points":' .. math.random(1, 5) .. '}')
end`;
  const seeded = wrk(dir, url, token, 'warm-up and seeding (not counted)', seed, 4);
  // Rank reads ask for seeded players only (an unranked one is a 404).
  const ranked = Math.max(1, Math.min(PLAYERS, seeded.requests));
  const byRequests = (figures: Figures) => figures.requests;
  const updates = cpuPerRequest(
    ourPath,
    () =>
      wrk(
        dir,
        url,
        token,
        'score updates',
        `request = function()
  return wrk.format("POST", "/v1/scores", nil, '{"user_id":"' .. player(math.random(0, players - 1)) .. '","points":' .. math.random(1, 5) .. '}')
end`,
        SECONDS,
      ),
    byRequests,
  );
  const reads = cpuPerRequest(
    ourPath,
    () =>
      wrk(
        dir,
        url,
        token,
        'rank reads',
        `request = function()
  return wrk.format("GET", "/v1/scores/" .. player(math.random(0, players - 1)))
end`,
        SECONDS,
        ranked,
      ),
    byRequests,
  );
  const ceiling = cpuPerRequest(
    { node: pids(baselines), nginx: nginxPids, wrk: 'reaped' },
    () =>
      wrk(
        dir,
        `http://127.0.0.1:${baselinePort}`,
        token,
        'ceiling: bare node:http ×2',
        `request = function()
  return wrk.format("GET", "/v1/scores/" .. player(math.random(0, players - 1)))
end`,
        SECONDS,
      ),
    byRequests,
  );
  const key = `${ns}:redis-benchmark`;
  const rawRedis: ProcessGroups = { redis: server(REDIS_URL), 'redis-benchmark': 'reaped' };
  const byRate = (figures: RedisFigures) => figures.requests;
  const zincrby = cpuPerRequest(
    rawRedis,
    () => redisBenchmark(REDIS_URL, ['ZINCRBY', key, '1', 'p__rand_int__']),
    byRate,
  );
  const zrevrank = cpuPerRequest(
    rawRedis,
    () => redisBenchmark(REDIS_URL, ['ZREVRANK', key, 'p__rand_int__']),
    byRate,
  );
  const load = loadavg().map((l) => l.toFixed(2));
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const rate = (figures: { perSecond: number }) => figures.perSecond;
  printTable('results (through nginx to two api processes vs redis-benchmark on the same Redis)', [
    [
      'score updates / ZINCRBY',
      `${rate(updates.result)}/s vs ${rate(zincrby.result)}/s: ratio ${ratio(rate(updates.result), rate(zincrby.result))}`,
    ],
    [
      'rank reads / ZREVRANK',
      `${rate(reads.result)}/s vs ${rate(zrevrank.result)}/s: ratio ${ratio(rate(reads.result), rate(zrevrank.result))}`,
    ],
    [
      'ceiling / ZREVRANK',
      `${rate(ceiling.result)}/s vs ${rate(zrevrank.result)}/s: ratio ${ratio(rate(ceiling.result), rate(zrevrank.result))}`,
    ],
    ['score updates / ceiling', `ratio ${ratio(rate(updates.result), rate(ceiling.result))}`],
    ['rank reads / ceiling', `ratio ${ratio(rate(reads.result), rate(ceiling.result))}`],
    ['load average after', load.join(' ')],
  ]);
  const cpuRow = (name: string, figures: { microseconds: Record<string, number> }): [string, string] => [
    name,
    Object.entries(figures.microseconds)
      .map(([group, us]) => `${group} ${us}`)
      .join(' · '),
  ];
  printTable('CPU per request, µs, by process (the servers are shared: other work on them counts too)', [
    cpuRow('score updates', updates),
    cpuRow('rank reads', reads),
    cpuRow('ceiling', ceiling),
    cpuRow('ZINCRBY', zincrby),
    cpuRow('ZREVRANK', zrevrank),
  ]);
  saveResults('leaderboard-distributed-http', {
    machine: machine(),
    loadavg: load,
    seconds: SECONDS,
    connections: CONNECTIONS,
    players: PLAYERS,
    updates: { ...updates.result, cpuMicroseconds: updates.microseconds },
    reads: { ...reads.result, cpuMicroseconds: reads.microseconds },
    ceiling: { ...ceiling.result, cpuMicroseconds: ceiling.microseconds },
    zincrby: { ...zincrby.result, cpuMicroseconds: zincrby.microseconds },
    zrevrank: { ...zrevrank.result, cpuMicroseconds: zrevrank.microseconds },
  });
} finally {
  for (const child of children.reverse()) await stop(child);
  // The run's names on the shared servers go with it.
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${ns}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  const nc = await connect({ servers: NATS_URL.split(',') });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(`${ns}_WINS`).catch(() => false);
  await jsm.streams.delete(`KV_${ns}_MATCHES`).catch(() => false);
  await nc.close();
  const { contactPoints, dataCenter } = parseCassandraUrl(CASSANDRA_URL);
  const client = new cassandra.Client({ contactPoints, localDataCenter: dataCenter });
  await client.execute(`DROP KEYSPACE IF EXISTS ${ns}`).catch(() => undefined);
  await client.shutdown();
  rmSync(dir, { recursive: true, force: true });
}
