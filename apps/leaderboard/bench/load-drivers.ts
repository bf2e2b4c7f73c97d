/**
 * The load drivers of the distributed benchmark: wrk through nginx (a Lua `request` of the
 * caller's) and redis-benchmark on the same Redis, shaped by BENCH_SECONDS (default 8),
 * BENCH_PLAYERS and BENCH_CONNECTIONS. Each prints its figures as it ends.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const REQUESTS = 100_000;

export interface Figures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** wrk against `url` for `seconds`, the requests made by the Lua `request` given. */
export function wrk(
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

export interface RedisFigures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** redis-benchmark's requests/s and p50 for one command (no pipelining, like the api's calls). */
export function redisBenchmark(redisUrl: string, args: readonly string[]): RedisFigures {
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
