/**
 * Latency at a fixed offered load (open loop, vegeta), for bench/http.ts: the load generator on
 * core 1, the server's CPU time per request from /proc.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuSeconds, hasTaskset, loadAverage, type BenchServer } from '@tessera/testkit';

export interface Fixed {
  rate: number;
  /** Server CPU time per request at this rate, µs: comparable between servers at one rate. */
  cpuMicros: number;
  achieved: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  success: number;
}

/** One open-loop run of vegeta at `rate` requests/s over `targets` (vegeta's JSON target format). */
export function fixedRate(
  vegeta: string,
  dir: string,
  server: BenchServer,
  title: string,
  targets: string[],
  rate: number,
  seconds: number,
): Fixed {
  const file = join(dir, `${title.replace(/\W+/g, '-')}.targets`);
  writeFileSync(file, `${targets.join('\n')}\n`);
  const attack = `${vegeta} attack -format=json -targets=${file} -rate=${rate}/s -duration=${seconds}s`;
  const pin = hasTaskset() ? 'taskset -c 1 ' : '';
  const cpuBefore = cpuSeconds(server.pid);
  const raw = JSON.parse(
    execFileSync('bash', ['-c', `${pin}${attack} | ${vegeta} report -type=json`], { encoding: 'utf8' }),
  ) as { latencies: Record<string, number>; throughput: number; success: number; requests: number };
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const ms = (ns: number | undefined) => Math.round((ns ?? 0) / 1e4) / 100;
  const figures: Fixed = {
    rate,
    cpuMicros: Math.round((cpu / raw.requests) * 1e7) / 10,
    achieved: Math.round(raw.throughput),
    p50: ms(raw.latencies['50th']),
    p90: ms(raw.latencies['90th']),
    p99: ms(raw.latencies['99th']),
    max: ms(raw.latencies.max),
    success: raw.success,
  };
  console.log(
    `  ${title} at ${rate}/s: p50 ${figures.p50} ms, p99 ${figures.p99} ms, max ${figures.max} ms, ` +
      `${Math.round(figures.success * 100)}% 2xx, ${figures.cpuMicros} µs CPU/request · load ${loadAverage()}`,
  );
  return figures;
}

export function vegetaTargets(
  url: string,
  token: string,
  count: number,
  make: (i: number) => { method: string; path: string; body?: string },
): string[] {
  const header = { Authorization: [`Bearer ${token}`], 'Content-Type': ['application/json'] };
  return Array.from({ length: count }, (_, i) => {
    const { method, path, body } = make(i);
    const target: Record<string, unknown> = { method, url: `${url}${path}`, header };
    if (body !== undefined) target.body = Buffer.from(body).toString('base64');
    return JSON.stringify(target);
  });
}
