/**
 * The exchange in process (issue #12's benchmark): gateway checks → risk → wallet → sequencer
 * with the node:sqlite journal (group commit) → matching engine → settlement and events, through
 * the service facade the HTTP routes call. The journal is the one the exchange runs with
 * (adapters/select.ts, DATA_FSYNC on): synchronous=full commits on the journal's writer thread,
 * synchronous=normal ones on the event loop; orders per CPU-second count every thread's CPU.
 *
 * Requests are generated beforehand (bench/order-flow.ts: limit orders around a mid price, about
 * 31 % filling on arrival, 20 % cancels of the account's oldest open order) and sent BATCH at a time,
 * as one turn of the event loop would receive them; after each batch the run awaits the group
 * commit. BENCH_INFLIGHT (default 1) turns may wait for their commits at once: with 2, the next
 * turn's requests are processed while the batch before is written and fsynced, as a gateway
 * with more requests arriving would do (the clients' acknowledgements wait for their own batch;
 * from 3 on, turns share the batch gathering behind the one being written: bench/turn-acks.ts).
 * Per run: orders/s over the whole run (commits included), each request's processing
 * time (steps 1–6, synchronous) and each request's acknowledgement time (from its submission to
 * its batch's durable commit), median of RUNS runs after a warm-up. Both journal sync modes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformSettings, readConfig } from '@tessera/kit';
import { selectAdapters } from '../src/adapters/select.ts';
import { exchangeRules, readExchangeConfig } from '../src/config.ts';
import { ExchangeService } from '../src/service.ts';
import { fund, orderFlow, send, type FlowOptions, type Request } from './order-flow.ts';
import { restartTimes } from './restart-times.ts';
import { histogram, timerOverhead } from './runners.ts';
import { TurnAcks } from './turn-acks.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
const SEED = Number(process.env.BENCH_SEED ?? 42);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 1_000);
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 1);
const RESTART_SNAPSHOT_EVERY = Number(process.env.BENCH_SNAPSHOT_EVERY ?? 100_000);
const MODES = (process.env.BENCH_SYNC ?? 'full,normal').split(',') as Array<'full' | 'normal'>;
/** BENCH_RESTART=0 skips the restart times at the end (profiles, A/B runs of the pipeline alone). */
const RESTART = process.env.BENCH_RESTART !== '0';

const config = readExchangeConfig({ EXCHANGE_HOURS: 'always' });
const flow: FlowOptions = { seed: SEED, accounts: ACCOUNTS, symbols: ['AAPL', 'MSFT'], mid: 10_000 };

interface RunResult {
  ordersPerSecond: number;
  /** Requests per second of this process's CPU time (user + system): what the shared machine's load does not change. */
  ordersPerCpuSecond: number;
  process: { p50: number; p99: number; p999: number };
  ack: { p50: number; p99: number };
  accepted: number;
  commits: number;
}

async function run(requests: readonly Request[], sync: 'full' | 'normal'): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ex-bench-'));
  try {
    const adapters = selectAdapters(
      readExchangeConfig({ EXCHANGE_HOURS: 'always', EXCHANGE_JOURNAL_SYNC: sync }),
      readConfig(platformSettings, { DATA_DIR: dir, DATA_FSYNC: 'true' }),
    );
    const service = ExchangeService.open({ rules: exchangeRules(config), journal: adapters.journal });
    await fund(service, flow);
    const processing = histogram();
    const ack = histogram();
    const turns = new TurnAcks(INFLIGHT, (nanos) => ack.recordValue(nanos));
    let accepted = 0;
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < requests.length; i += BATCH) {
      const end = Math.min(i + BATCH, requests.length);
      const submitted = new Float64Array(end - i);
      for (let j = i; j < end; j++) {
        const t0 = performance.now();
        if (send(service, requests[j]!)) accepted++;
        const t1 = performance.now();
        submitted[j - i] = t0;
        processing.recordValue(Math.round((t1 - t0) * 1e6));
      }
      await turns.add(submitted, service.durable());
    }
    await turns.drain();
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    await service.close();
    await adapters.close();
    const us = (h: typeof processing, q: number): number => h.getValueAtPercentile(q) / 1000;
    return {
      ordersPerSecond: requests.length / seconds,
      ordersPerCpuSecond: requests.length / cpuSeconds,
      process: { p50: us(processing, 50), p99: us(processing, 99), p999: us(processing, 99.9) },
      ack: { p50: us(ack, 50), p99: us(ack, 99) },
      accepted,
      commits: turns.commits,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits });

const next = orderFlow(flow);
const requests = Array.from({ length: REQUESTS }, next);
const timer = timerOverhead(100_000);
console.log(
  `setup: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ${fmt(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; ` +
    `${fmt(REQUESTS, 0)} requests per run (${ACCOUNTS} accounts, AAPL and MSFT, ~1/3 crossing, 20 % cancels), ` +
    `${BATCH} per event-loop turn then one group commit (full: on the journal's writer thread), ${INFLIGHT} turn(s) awaiting their commit at once, seed ${SEED}, median of ${RUNS} runs after a warm-up; ` +
    `timer cost p50 ${fmt(timer.getValueAtPercentile(50) / 1000, 2)} µs`,
);
const rows: string[] = [];
for (const sync of MODES) {
  await run(requests.slice(0, Math.min(100_000, REQUESTS)), sync);
  const results: RunResult[] = [];
  for (let i = 0; i < RUNS; i++) results.push(await run(requests, sync));
  const m = (pick: (r: RunResult) => number): number => median(results.map(pick));
  rows.push(
    `| ${sync.padEnd(6)} | ${fmt(
      m((r) => r.ordersPerSecond),
      0,
    ).padStart(9)} | ${fmt(
      m((r) => r.ordersPerCpuSecond),
      0,
    )} | ${fmt(
      m((r) => r.process.p50),
      2,
    )} µs | ${fmt(
      m((r) => r.process.p99),
      2,
    )} µs | ${fmt(
      m((r) => r.process.p999),
      2,
    )} µs | ${fmt(
      m((r) => r.ack.p50),
      0,
    )} µs | ${fmt(
      m((r) => r.ack.p99),
      0,
    )} µs | ${fmt((100 * m((r) => r.accepted)) / REQUESTS, 1)} % | ${fmt(
      m((r) => r.commits),
      0,
    )} |`,
  );
  console.log(
    `journal sync=${sync}: runs ${results.map((r) => fmt(r.ordersPerSecond, 0)).join(', ')} orders/s`,
  );
}
console.log(
  `load average during the runs: ${loadavg()
    .map((l) => fmt(l, 1))
    .join(', ')}`,
);
console.log(
  '\n| Journal sync | Orders/s | Orders/CPU-s | Process p50 | Process p99 | Process p99.9 | Ack p50 | Ack p99 | Accepted | Commits |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);

if (RESTART) await restartAfter(requests);

async function restartAfter(requests: readonly Request[]): Promise<void> {
  let replayed = 0;
  const restart = await restartTimes({
    rules: exchangeRules(config),
    flow,
    requests: requests.length,
    next: () => requests[replayed++]!,
    batch: BATCH,
    snapshotEvery: RESTART_SNAPSHOT_EVERY,
    runs: RUNS,
    fullReplayRuns: RUNS,
  });
  console.log(
    `\nrestart after ${fmt(restart.commands, 0)} journaled commands (snapshot every ${fmt(RESTART_SNAPSHOT_EVERY, 0)}, ` +
      `the latest at ${fmt(restart.lastSnapshot, 0)}, ${fmt(restart.snapshotBytes / 2 ** 20, 1)} MiB): ` +
      `${fmt(restart.withSnapshot.wall, 0)} ms (${fmt(restart.withSnapshot.cpu, 0)} ms CPU) from the snapshot and the ${fmt(restart.commands - restart.lastSnapshot, 0)} commands after it, ` +
      `${fmt(restart.fullReplay!.wall, 0)} ms (${fmt(restart.fullReplay!.cpu, 0)} ms CPU) replaying the whole journal; same digest both ways`,
  );
}
