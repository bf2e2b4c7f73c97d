/**
 * `tessera leaderboard rebuild` of a month of BENCH_REBUILD_PLAYERS players (default 1,000,000,
 * one win each) from JetStream into Redis: the wins are published straight to a stream of the
 * run's own on the shared NATS (NATS_URL), then the CLI rebuilds the month into the shared Redis
 * (REDIS_URL), then again into the sharded ranking over 2 Redis instances of the run's own. The
 * CLI prints wins/s; its own start is included in the time printed here, not in its figure.
 * Skipped when the servers are not given.
 */
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { encodeWin } from '../src/adapters/nats/win-event.ts';
import { startOwnRedis, type OwnRedis } from './own-redis.ts';
import { machine, perSecond, printTable, saveResults } from './report.ts';
import { seededRandom } from '@tessera/testkit';

const PLAYERS = Number(process.env.BENCH_REBUILD_PLAYERS ?? 1_000_000);
const PERIOD = '2026-11';
const MAIN = fileURLToPath(new URL('../../tessera/src/main.ts', import.meta.url));
const IN_FLIGHT = 2_000;

const { NATS_URL, REDIS_URL, CASSANDRA_URL } = process.env;
if (NATS_URL === undefined || REDIS_URL === undefined || CASSANDRA_URL === undefined) {
  console.log(
    'rebuild benchmark skipped: set NATS_URL, REDIS_URL and CASSANDRA_URL (e.g. tools/backends.sh up)',
  );
  process.exit(0);
}

const ns = `bench_rb_${Date.now().toString(36)}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  LEADERBOARD_STREAM: `${ns}_WINS`,
  LEADERBOARD_STREAM_SUBJECT: `${ns}.wins`,
  LEADERBOARD_MATCH_BUCKET: `${ns}_MATCHES`,
  LEADERBOARD_REDIS_PREFIX: `${ns}:`,
  LEADERBOARD_KEYSPACE: ns,
};

async function rebuild(extra: NodeJS.ProcessEnv): Promise<{ line: string; wallMs: number }> {
  const started = performance.now();
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [
      '--conditions=development',
      '--disable-warning=ExperimentalWarning',
      MAIN,
      'leaderboard',
      'rebuild',
      '--period',
      PERIOD,
    ],
    { env: { ...env, ...extra }, maxBuffer: 64 * 1024 * 1024 },
  );
  const line =
    `${stdout}\n${stderr}`
      .split(/[\r\n]/)
      .filter((l) => l.startsWith('rebuilt'))
      .at(-1) ?? stdout.trim();
  console.log(`  ${line}`);
  return { line, wallMs: performance.now() - started };
}

const nc = await connect({ servers: NATS_URL.split(',') });
const jsm = await jetstreamManager(nc);
const own: OwnRedis[] = [];
try {
  await jsm.streams.add({
    name: `${ns}_WINS`,
    subjects: [`${ns}.wins.*`],
    storage: StorageType.File,
    num_replicas: 1,
    duplicate_window: 120_000 * 1_000_000,
    allow_direct: true,
  });
  const random = seededRandom(5);
  console.log(
    `rebuild benchmark · ${machine()} · load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const publishStart = performance.now();
  // Plain NATS publishes (no ack each): the stream stores them all the same; then wait for it to
  // hold every one. This is the setup, not the figure.
  for (let i = 0; i < PLAYERS; i += IN_FLIGHT) {
    for (let j = i; j < Math.min(PLAYERS, i + IN_FLIGHT); j++) {
      const win = {
        period: PERIOD,
        userId: `player-${j}`,
        points: 1 + random(1_000),
        at: 1_790_000_000_000 + j,
      };
      nc.publish(`${ns}.wins.${PERIOD}`, encodeWin(win));
    }
    await nc.flush();
  }
  for (let i = 0; i < 600; i++) {
    const { state } = await jsm.streams.info(`${ns}_WINS`);
    if (state.messages >= PLAYERS) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { state } = await jsm.streams.info(`${ns}_WINS`);
  if (state.messages !== PLAYERS) throw new Error(`the stream holds ${state.messages} wins, not ${PLAYERS}`);
  const publishMs = performance.now() - publishStart;
  console.log(
    `  published ${PLAYERS.toLocaleString('en-US')} wins in ${(publishMs / 1000).toFixed(1)} s (${perSecond(PLAYERS, publishMs)})`,
  );

  const single = await rebuild({});
  for (let i = 0; i < 2; i++) own.push(await startOwnRedis());
  const sharded = await rebuild({
    LEADERBOARD_REDIS_SHARDS: own.map((r) => `redis://127.0.0.1:${r.port}`).join(','),
    LEADERBOARD_REBALANCE_MS: '0',
  });
  const load = loadavg().map((l) => l.toFixed(2));
  printTable(`rebuild of a month of ${PLAYERS.toLocaleString('en-US')} players (one win each)`, [
    ['one Redis', `${single.line} · ${(single.wallMs / 1000).toFixed(1)} s with the CLI's start`],
    ['2 Redis shards', `${sharded.line} · ${(sharded.wallMs / 1000).toFixed(1)} s with the CLI's start`],
    ['load average after', load.join(' ')],
  ]);
  saveResults('leaderboard-rebuild', {
    machine: machine(),
    loadavg: load,
    players: PLAYERS,
    publishMs,
    single,
    sharded,
  });
} finally {
  for (const server of own) await server.stop();
  await jsm.streams.delete(`${ns}_WINS`).catch(() => false);
  await jsm.streams.delete(`KV_${ns}_MATCHES`).catch(() => false);
  await nc.close();
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${ns}:*`, 'COUNT', 1_000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}
