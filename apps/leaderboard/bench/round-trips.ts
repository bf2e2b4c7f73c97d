/**
 * The round trips of the distributed leaderboard, one kind at a time, on the shared NATS and Redis
 * (NATS_URL, REDIS_URL; names of the run's own, removed afterwards): a win's JetStream publish
 * (with its ack), a match id's KV claim, a win's Redis script and a rank read's two Redis calls.
 * Each is driven with BENCH_IN_FLIGHT (64) in flight from this one process, in both client
 * settings where one was weighed (NATS async traces: off in the api; ioredis auto-pipelining:
 * tried, not kept), the two interleaved for BENCH_ROUNDS (5) rounds: the CPU per round trip of the client (process.cpuUsage)
 * and of the server (/proc), medians. CPU per operation moves less with a shared machine's load
 * than operations per second do, but it moves too (contention inflates it): compare only rounds
 * of one run.
 */
import { loadavg } from 'node:os';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { MatchClaims } from '../src/adapters/nats/match-claims.ts';
import { ensureWinLogStream } from '../src/adapters/nats/win-log-stream.ts';
import { encodeWin } from '../src/adapters/nats/win-event.ts';
import { RedisRankingStore } from '../src/adapters/redis/redis-ranking-store.ts';
import { listeningPid, processCpuMs } from './process-cpu.ts';
import { machine, printTable } from './report.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OPS = Number(process.env.BENCH_OPS ?? 5_000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 64);
const PERIOD = '2026-11';

const { NATS_URL, REDIS_URL } = process.env;
if (NATS_URL === undefined || REDIS_URL === undefined) {
  console.log('round-trip benchmark skipped: set NATS_URL and REDIS_URL (e.g. tools/backends.sh up)');
  process.exit(0);
}

/** Runs `op(i)` for i < OPS with IN_FLIGHT at a time; client and server CPU µs per op. */
async function measure(
  serverPid: number | undefined,
  op: (i: number) => Promise<unknown>,
): Promise<{ client: number; server: number }> {
  const server = serverPid === undefined ? 0 : processCpuMs(serverPid);
  const client = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < OPS) await op(next++);
    }),
  );
  const used = process.cpuUsage(client);
  return {
    client: Math.round((used.user + used.system) / OPS),
    server: serverPid === undefined ? 0 : Math.round(((processCpuMs(serverPid) - server) * 1000) / OPS),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const ns = `rt_${Date.now().toString(36)}`;
const natsPid = listeningPid(Number(new URL(NATS_URL.split(',')[0]!).port));
const redisPid = listeningPid(Number(new URL(REDIS_URL).port));
const streamOptions = {
  stream: `${ns}_WINS`,
  subjectPrefix: `${ns}.wins`,
  matchBucket: `${ns}_MATCHES`,
  replicas: 1,
  duplicateWindowMs: 120_000,
  matchIdTtlMs: 0,
};
const connections: NatsConnection[] = [];
const natsWith = async (noAsyncTraces: boolean) => {
  const nc = await connect({ servers: NATS_URL.split(','), noAsyncTraces });
  connections.push(nc);
  return nc;
};
const traced = await natsWith(false);
const untraced = await natsWith(true);
const { kv } = await ensureWinLogStream(untraced, streamOptions);
const claims = new MatchClaims(kv);
const redisWith = (enableAutoPipelining: boolean) => new Redis(REDIS_URL, { enableAutoPipelining });
const plainRedis = redisWith(false);
const pipelinedRedis = redisWith(true);
const options = { tieBreak: 'shared' as const, keyPrefix: `${ns}:` };
const plainStore = new RedisRankingStore(plainRedis, options);
const pipelinedStore = new RedisRankingStore(pipelinedRedis, options);
const win = (i: number) => ({ period: PERIOD, userId: `p${i % 100_000}`, points: 1, at: Date.now() });
let seq = 0;

const kinds = new Map<string, () => Promise<{ client: number; server: number }>>();
const kind = (name: string, run: () => Promise<{ client: number; server: number }>) => kinds.set(name, run);
const publishWith = (nc: NatsConnection) => {
  const js = jetstream(nc);
  return () =>
    measure(natsPid, (i) =>
      js.publish(`${streamOptions.subjectPrefix}.${PERIOD}`, encodeWin(win(i)), { timeout: 5_000 }),
    );
};
kind('JetStream publish + ack, async traces (before)', publishWith(traced));
kind('JetStream publish + ack, no async traces (after)', publishWith(untraced));
kind('KV create (a match id claim), no async traces', () =>
  measure(natsPid, (i) => claims.create(`${ns}-${seq}-${i}`, { ...win(i), matchId: `m${i}` }, Date.now())),
);
const applyWith = (store: RedisRankingStore) => () =>
  measure(redisPid, (i) => store.applyWin({ ...win(i), seq: ++seq }));
kind('Redis apply script', applyWith(plainStore));
kind('Redis apply script, auto-pipelined (not kept)', applyWith(pipelinedStore));
const readWith = (store: RedisRankingStore) => () =>
  measure(redisPid, async (i) => {
    await store.periods();
    return store.standing(PERIOD, `p${i % 1_000}`);
  });
kind('Redis rank read: periods + standing', readWith(plainStore));
kind('Redis rank read: periods + standing, auto-pipelined (not kept)', readWith(pipelinedStore));

try {
  console.log(
    `round trips · ${machine()} · ${IN_FLIGHT} in flight · ${OPS} ops × ${ROUNDS} rounds · load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const results: Record<string, Array<{ client: number; server: number }>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of kinds) (results[name] ??= []).push(await run());
  }
  printTable(
    'CPU per round trip, µs, medians (client: this Node process; server: nats-server or redis-server)',
    Object.entries(results).map(([name, runs]) => [
      name,
      `client ${median(runs.map((r) => r.client))} · server ${median(runs.map((r) => r.server))} (clients ${runs.map((r) => r.client).join(', ')})`,
    ]),
  );
  console.log(
    `  load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  const keys = await plainRedis.keys(`${ns}:*`);
  if (keys.length > 0) await plainRedis.del(...keys);
  await plainRedis.quit();
  await pipelinedRedis.quit();
  const jsm = await jetstreamManager(untraced);
  await jsm.streams.delete(streamOptions.stream).catch(() => false);
  await jsm.streams.delete(`KV_${streamOptions.matchBucket}`).catch(() => false);
  for (const nc of connections) await nc.close();
}
