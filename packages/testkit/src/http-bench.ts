/**
 * What the HTTP benchmarks share (issue 8's method, see docs/benchmarks.md): the server under test
 * in its own process pinned to core 0 (taskset), the load generator (wrk) on core 1, bare
 * `node:http` answering a constant body on the same core as the yardstick, the server's CPU time
 * per request read from /proc, and medians over rounds. wrk, not a Node client: a JavaScript load
 * generator saturates its core before the server does.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** bare node:http answering a constant JSON body: `startPinned([BASELINE_SERVER], …)`. */
// A sibling module: .ts when run from source, .js once built.
export const BASELINE_SERVER = fileURLToPath(
  new URL(`./baseline-server${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);
/** `tessera` from source: `startPinned([TESSERA_MAIN, 'run', service, role], …)`. */
export const TESSERA_MAIN = fileURLToPath(new URL('../../../apps/tessera/src/main.ts', import.meta.url));
const ENSURE_WRK = fileURLToPath(new URL('../../../tools/ensure-wrk.sh', import.meta.url));

export interface BenchServer {
  readonly url: string;
  readonly pid: number;
  stop(): void;
}

export interface Figures {
  requests: number;
  requestsPerSecond: number;
  /** Server CPU time per request, µs (all its threads). */
  cpuMicros: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  errors: number;
}

let taskset: boolean | undefined;
export function hasTaskset(): boolean {
  if (taskset === undefined) {
    try {
      execFileSync('taskset', ['-V'], { stdio: 'ignore' });
      taskset = true;
    } catch {
      taskset = false;
    }
  }
  return taskset;
}

/** wrk on the PATH (installed once by tools/ensure-wrk.sh). */
export function ensureWrk(): void {
  execFileSync('bash', [ENSURE_WRK], { stdio: 'inherit' });
}

/**
 * Starts `node <script…>` pinned to core 0 (and moves this process to core 1), resolving once it
 * logs a JSON line whose `msg` ends with "listening" and carries its `url`. `profileDir`: the
 * process writes a V8 CPU profile there when it stops.
 */
export async function startPinned(
  script: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { profileDir?: string } = {},
): Promise<BenchServer> {
  const pin = hasTaskset();
  const profile =
    options.profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`];
  const nodeArgs = [
    '--conditions=development',
    '--disable-warning=ExperimentalWarning',
    ...profile,
    ...script,
  ];
  const stdio: ['ignore', 'pipe', 'inherit'] = ['ignore', 'pipe', 'inherit'];
  const child = pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...nodeArgs], { stdio, env })
    : spawn(process.execPath, nodeArgs, { stdio, env });
  if (pin) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      let entry: { url?: string; msg?: string };
      try {
        entry = JSON.parse(line) as { url?: string; msg?: string };
      } catch {
        return; // not a log line
      }
      if (entry.url && entry.msg?.endsWith('listening')) resolve(entry.url);
    });
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/** CPU seconds (user + system, every thread) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of proc(5)'s stat; this list starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

export interface WrkRun {
  /** Where the Lua script is written. */
  readonly dir: string;
  readonly server: BenchServer;
  readonly title: string;
  /** Lua run once per connection before `request` (headers, tables, counters). */
  readonly setup: string;
  /** Lua defining `request = function() … end`. */
  readonly request: string;
  readonly seconds: number;
  readonly connections: number;
}

/** One closed-loop wrk run (1 thread, pinned to core 1); prints a line and returns its figures. */
export function runWrk(run: WrkRun): Figures {
  const script = join(run.dir, `${run.title.replace(/\W+/g, '-')}.lua`);
  writeFileSync(
    script,
    `${run.setup}
${run.request}
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status
  io.write(string.format('{"requests":%d,"us":%d,"errors":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}\\n',
    summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency:percentile(99.9), latency.max))
end
`,
  );
  const args = ['-t1', `-c${run.connections}`, `-d${run.seconds}s`, '-s', script, run.server.url];
  const cpuBefore = cpuSeconds(run.server.pid);
  const output = execFileSync(
    hasTaskset() ? 'taskset' : 'wrk',
    hasTaskset() ? ['-c', '1', 'wrk', ...args] : args,
    {
      encoding: 'utf8',
    },
  );
  const line = output.split('\n').find((l) => l.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`wrk printed no figures:\n${output}`);
  const raw = JSON.parse(line) as Record<string, number>;
  const cpu = cpuSeconds(run.server.pid) - cpuBefore;
  const ms = (us: number | undefined) => Math.round((us ?? 0) / 10) / 100;
  const figures: Figures = {
    requests: raw.requests!,
    requestsPerSecond: (raw.requests! / raw.us!) * 1e6,
    cpuMicros: Math.round((cpu / raw.requests!) * 1e7) / 10,
    p50: ms(raw.p50),
    p90: ms(raw.p90),
    p99: ms(raw.p99),
    p999: ms(raw.p999),
    max: ms(raw.max),
    errors: raw.errors!,
  };
  console.log(
    `  ${run.title}: ${Math.round(figures.requestsPerSecond).toLocaleString('en-US')} req/s, p99 ${figures.p99} ms, ` +
      `${figures.cpuMicros} µs CPU/request${figures.errors > 0 ? `, ${figures.errors} errors` : ''} · load ${loadAverage()}`,
  );
  return figures;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The median of each figure over the runs (each figure on its own). */
export function medianOf(runs: readonly Figures[]): Figures {
  const pick = (key: keyof Figures) => median(runs.map((r) => r[key]));
  return {
    requests: pick('requests'),
    requestsPerSecond: pick('requestsPerSecond'),
    cpuMicros: pick('cpuMicros'),
    p50: pick('p50'),
    p90: pick('p90'),
    p99: pick('p99'),
    p999: pick('p999'),
    max: pick('max'),
    errors: pick('errors'),
  };
}

/** Each round's ratio to the baseline of the same round, then their median. */
export function medianRatio(runs: readonly Figures[], baseline: readonly Figures[]): number {
  return median(runs.map((f, i) => f.requestsPerSecond / baseline[i]!.requestsPerSecond));
}

/** A row of figures for a results table. */
export function figuresRow(f: Figures): string {
  return `${Math.round(f.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  ${String(f.cpuMicros).padStart(5)} µs CPU/req  p50 ${f.p50} ms  p99 ${f.p99} ms  p99.9 ${f.p999} ms  errors ${f.errors}`;
}
