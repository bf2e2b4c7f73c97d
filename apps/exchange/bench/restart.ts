/**
 * Restart time after millions of journaled events (issue #12: "restart time from journal +
 * snapshot after 10 million events"): BENCH_EVENTS requests of the pipeline's order flow (default
 * 10,000,000; streamed, never all in memory) journaled with a snapshot every BENCH_SNAPSHOT_EVERY
 * commands, then the service opened again from the latest snapshot (median of BENCH_RUNS) and
 * once from the whole journal with the snapshots removed (BENCH_FULL_REPLAY=0 skips it), each
 * checked against the writer's state digest.
 * Usage: node --conditions=development bench/restart.ts
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { exchangeRules, readExchangeConfig } from '../src/config.ts';
import { orderFlow, type FlowOptions } from './order-flow.ts';
import { restartTimes } from './restart-times.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const SNAPSHOT_EVERY = Number(process.env.BENCH_SNAPSHOT_EVERY ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FULL_REPLAY_RUNS = Number(process.env.BENCH_FULL_REPLAY ?? 1);
const BATCH = 1_000;

const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const load = () =>
  loadavg()
    .map((l) => fmt(l, 1))
    .join(' ');

const flow: FlowOptions = { seed: 42, accounts: 1_000, symbols: ['AAPL', 'MSFT'], mid: 10_000 };
console.log(
  `setup: ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ${fmt(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; ` +
    `${fmt(EVENTS, 0)} requests of the pipeline's order flow (1,000 accounts, AAPL and MSFT), ${BATCH} per group commit, ` +
    `snapshot every ${fmt(SNAPSHOT_EVERY, 0)} commands, journal synchronous=normal; load average ${load()}`,
);
let lastLine = 0;
const result = await restartTimes({
  rules: exchangeRules(readExchangeConfig({ EXCHANGE_HOURS: 'always' })),
  flow,
  requests: EVENTS,
  next: orderFlow(flow),
  batch: BATCH,
  snapshotEvery: SNAPSHOT_EVERY,
  runs: RUNS,
  fullReplayRuns: FULL_REPLAY_RUNS,
  progress(written) {
    const now = performance.now();
    if (now - lastLine < 10_000 && written < EVENTS) return;
    lastLine = now;
    console.log(`  journaled ${fmt(written, 0)} of ${fmt(EVENTS, 0)} requests`);
  },
});
const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 0)} MiB`;
console.log(
  `journal: ${fmt(result.commands, 0)} commands in ${fmt(result.writeSeconds, 0)} s, ${mib(result.journalBytes)} on disk; ` +
    `latest snapshot at ${fmt(result.lastSnapshot, 0)} (${mib(result.snapshotBytes)})` +
    (result.failedSnapshots.length === 0
      ? ''
      : `; ${result.failedSnapshots.length} snapshots failed (at ${result.failedSnapshots.map((s) => fmt(s, 0)).join(', ')}: the state no longer fits one JSON string)`),
);
console.log(
  `restart from the snapshot and the ${fmt(result.commands - result.lastSnapshot, 0)} commands after it: ` +
    `${fmt(result.withSnapshot.wall, 0)} ms (${fmt(result.withSnapshot.cpu, 0)} ms CPU, median of ${RUNS}), ` +
    `${mib(result.withSnapshot.memory)} of heap and buffers after it`,
);
if (result.fullReplay !== undefined) {
  console.log(
    `restart replaying the whole journal: ${fmt(result.fullReplay.wall, 0)} ms (${fmt(result.fullReplay.cpu, 0)} ms CPU)`,
  );
}
console.log(`same state digest every time; load average after ${load()}`);
