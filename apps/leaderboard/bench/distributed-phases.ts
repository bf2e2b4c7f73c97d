/**
 * The load phases of the distributed benchmark, one after another: seeding (not counted), score
 * updates and rank reads through nginx to the api, the ceiling (bare node:http behind the same
 * nginx), then redis-benchmark ZINCRBY and ZREVRANK on the same Redis; each with its CPU per request.
 */
import { cpuPerRequest, type ProcessGroups } from './process-cpu.ts';
import { PLAYERS, SECONDS, redisBenchmark, wrk, type Figures, type RedisFigures } from './load-drivers.ts';

export interface PhaseTargets {
  /** Where wrk writes its scripts. */
  readonly dir: string;
  /** nginx in front of the api processes, and in front of the baselines. */
  readonly url: string;
  readonly baselineUrl: string;
  readonly token: string;
  /** The processes whose CPU a request through the api costs, and through the baselines. */
  readonly ourPath: ProcessGroups;
  readonly baselinePath: ProcessGroups;
  readonly redisUrl: string;
  /** The Redis server's process, for redis-benchmark's CPU per request. */
  readonly redisPids: readonly number[];
  /** The sorted set redis-benchmark works on (a name of the run's own). */
  readonly redisKey: string;
}

export interface Measured<T> {
  readonly result: T;
  readonly microseconds: Record<string, number>;
}

export interface PhaseResults {
  readonly updates: Measured<Figures>;
  readonly reads: Measured<Figures>;
  readonly ceiling: Measured<Figures>;
  readonly zincrby: Measured<RedisFigures>;
  readonly zrevrank: Measured<RedisFigures>;
}

export function runPhases(targets: PhaseTargets): PhaseResults {
  const { dir, url, token, ourPath } = targets;
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
    targets.baselinePath,
    () =>
      wrk(
        dir,
        targets.baselineUrl,
        token,
        'ceiling: bare node:http ×2',
        `request = function()
  return wrk.format("GET", "/v1/scores/" .. player(math.random(0, players - 1)))
end`,
        SECONDS,
      ),
    byRequests,
  );
  const key = targets.redisKey;
  const rawRedis: ProcessGroups = { redis: targets.redisPids, 'redis-benchmark': 'reaped' };
  const byRate = (figures: RedisFigures) => figures.requests;
  const zincrby = cpuPerRequest(
    rawRedis,
    () => redisBenchmark(targets.redisUrl, ['ZINCRBY', key, '1', 'p__rand_int__']),
    byRate,
  );
  const zrevrank = cpuPerRequest(
    rawRedis,
    () => redisBenchmark(targets.redisUrl, ['ZREVRANK', key, 'p__rand_int__']),
    byRate,
  );
  return { updates, reads, ceiling, zincrby, zrevrank };
}
