/**
 * The ranking sharded by score range (LEADERBOARD_REDIS_SHARDS) with 1, 2 and 4 Redis instances
 * of the benchmark's own, from one Node process: applyWin (the home script, the placement and the
 * rank read) and rank reads (standing), BENCH_CONCURRENCY requests in flight, each for
 * BENCH_SHARD_SECONDS (default 4), after seeding BENCH_SHARD_PLAYERS players (default 50,000) and
 * one rebalance. On a shared 2-core machine the instances compete with the client for the same
 * cores: the figures show the cost of the protocol, not the scaling N machines would give. Beside
 * the rates, the CPU each operation costs, in µs: this process's (process.cpuUsage) and all the
 * instances' together (INFO cpu), steadier than rates when other work shares the machine.
 * BENCH_SHARD_COUNTS (default 0,1,2,4) picks the rankings; 0 is the unsharded store.
 */
import { loadavg } from 'node:os';
import type { Redis } from 'ioredis';
import { RedisRankingStore } from '../src/adapters/redis/redis-ranking-store.ts';
import { ShardedRankingStore } from '../src/adapters/redis/sharded-ranking-store.ts';
import type { Win } from '../src/core/win.ts';
import { startOwnRedis, type OwnRedis } from './own-redis.ts';
import { machine, perSecond, printTable, saveResults } from './report.ts';
import { seededRandom } from '@tessera/testkit';

const SECONDS = Number(process.env.BENCH_SHARD_SECONDS ?? 4);
const PLAYERS = Number(process.env.BENCH_SHARD_PLAYERS ?? 50_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const COUNTS = (process.env.BENCH_SHARD_COUNTS ?? '0,1,2,4').split(',').map(Number);
const PERIOD = '2026-11';

interface Figures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU per operation, µs: this process, and every Redis instance together. */
  readonly clientCpuUs: number;
  readonly redisCpuUs: number;
  /** Scripts run per operation, on every instance together (each look at a shard is one). */
  readonly scripts: number;
}

/** Scripts (EVALSHA, EVAL) the instances ran so far. */
async function scriptCalls(instances: readonly Redis[]): Promise<number> {
  const infos = await Promise.all(instances.map((r) => r.info('commandstats')));
  return infos.reduce(
    (sum, info) =>
      sum + [...info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0),
    0,
  );
}

/** CPU seconds (user + system) the instances used so far. */
async function redisCpu(instances: readonly Redis[]): Promise<number> {
  const infos = await Promise.all(instances.map((r) => r.info('cpu')));
  return infos.reduce((sum, info) => {
    const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    return sum + field('used_cpu_user') + field('used_cpu_sys');
  }, 0);
}

async function measure(instances: readonly Redis[], operation: () => Promise<unknown>): Promise<Figures> {
  const latencies: number[] = [];
  const redisBefore = await redisCpu(instances);
  const scriptsBefore = await scriptCalls(instances);
  const clientBefore = process.cpuUsage();
  const end = performance.now() + SECONDS * 1_000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await operation();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  const redisSeconds = (await redisCpu(instances)) - redisBefore;
  const scripts = (await scriptCalls(instances)) - scriptsBefore;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))]! * 100) / 100;
  const n = latencies.length;
  return {
    perSecond: Math.round((n / elapsed) * 1_000),
    p50: at(0.5),
    p99: at(0.99),
    clientCpuUs: Math.round((client.user + client.system) / n),
    redisCpuUs: Math.round((redisSeconds * 1e6) / n),
    scripts: Math.round((scripts / n) * 100) / 100,
  };
}

/** shardCount 0: the unsharded RedisRankingStore on one instance, the baseline. */
async function run(shardCount: number): Promise<{ shards: number; updates: Figures; reads: Figures }> {
  const servers: OwnRedis[] = [];
  try {
    for (let i = 0; i < Math.max(1, shardCount); i++) servers.push(await startOwnRedis());
    const options = { tieBreak: 'shared', keyPrefix: 'bench:lb:' } as const;
    const sharded =
      shardCount === 0
        ? undefined
        : new ShardedRankingStore(
            servers.map((s) => s.client),
            options,
          );
    const store = sharded ?? new RedisRankingStore(servers[0]!.client, options);
    const random = seededRandom(shardCount);
    let seq = 0;
    const next = (): Win => {
      seq++;
      return { seq, period: PERIOD, userId: `player-${random(PLAYERS)}`, points: 1 + random(100), at: seq };
    };
    const seed: Win[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      seq++;
      seed.push({ seq, period: PERIOD, userId: `player-${i}`, points: 1 + random(1_000), at: seq });
    }
    await store.applyBatch(seed);
    await sharded?.rebalance(PERIOD);
    const instances = servers.map((s) => s.client);
    const updates = await measure(instances, () => store.applyWin(next()));
    await sharded?.close();
    const reads = await measure(instances, () => store.standing(PERIOD, `player-${random(PLAYERS)}`));
    return { shards: shardCount, updates, reads };
  } finally {
    for (const server of servers) await server.stop();
  }
}

const results = [];
for (const shards of COUNTS) {
  const result = await run(shards);
  results.push(result);
  printTable(shards === 0 ? 'unsharded ranking (one Redis)' : `sharded ranking, ${shards} shard(s)`, [
    [
      'applyWin',
      `${perSecond(result.updates.perSecond, 1_000)} p50 ${result.updates.p50} ms p99 ${result.updates.p99} ms` +
        ` · CPU/op client ${result.updates.clientCpuUs} µs, redis ${result.updates.redisCpuUs} µs` +
        ` · ${result.updates.scripts} scripts/op`,
    ],
    [
      'standing',
      `${perSecond(result.reads.perSecond, 1_000)} p50 ${result.reads.p50} ms p99 ${result.reads.p99} ms` +
        ` · CPU/op client ${result.reads.clientCpuUs} µs, redis ${result.reads.redisCpuUs} µs` +
        ` · ${result.reads.scripts} scripts/op`,
    ],
  ]);
}
const load = loadavg().map((l) => l.toFixed(2));
console.log(`\n${machine()} · load average ${load.join(' ')} · ${PLAYERS} players, ${CONCURRENCY} in flight`);
saveResults('leaderboard-sharded', {
  machine: machine(),
  loadavg: load,
  players: PLAYERS,
  concurrency: CONCURRENCY,
  seconds: SECONDS,
  results,
});
