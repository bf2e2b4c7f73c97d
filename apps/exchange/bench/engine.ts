/**
 * The matching engine core, one symbol, in process (issue #3's benchmark).
 *
 * For each mix (see stream.ts), on one generated journal:
 * - throughput: the journal replayed through a fresh engine, output records cleared after each
 *   event (a consumer that reads nothing); median of RUNS runs; GC events counted during them;
 * - latency: a separate pass timing each event with performance.now() (no allocation), sorted;
 * - nodejs-order-book: the same journal through its limit() and cancel(), same runs;
 * - replay: a journal of REPLAY_EVENTS events rebuilt from scratch, events/s.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { OrderBook as NodejsOrderBook, Side } from 'nodejs-order-book';
import { MSG_NEW, SIDE_BUY } from '../src/core/codes.ts';
import { MatchingEngine } from '../src/core/engine.ts';
import { BENCH_SPEC, DEEP_QUEUES, generateJournal, MIXED, type Journal, type Mix } from './stream.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000_000);
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SEED = 42;

let gcCount = 0;
new PerformanceObserver((list) => {
  gcCount += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

function runEngine(journal: Journal, events = journal.length): number {
  const engine = new MatchingEngine(BENCH_SPEC);
  const out = engine.out;
  const { type, orderId, side, price, quantity } = journal;
  const start = performance.now();
  for (let i = 0; i < events; i++) {
    engine.submit(i + 1, type[i]!, orderId[i]!, side[i]!, price[i]!, quantity[i]!);
    out.clear();
  }
  return performance.now() - start;
}

function latencies(journal: Journal): Float64Array {
  const engine = new MatchingEngine(BENCH_SPEC);
  const out = engine.out;
  const { type, orderId, side, price, quantity } = journal;
  const times = new Float64Array(journal.length);
  for (let i = 0; i < journal.length; i++) {
    const t0 = performance.now();
    engine.submit(i + 1, type[i]!, orderId[i]!, side[i]!, price[i]!, quantity[i]!);
    out.clear();
    times[i] = performance.now() - t0;
  }
  return times.sort();
}

function runNodejsOrderBook(journal: Journal, ids: string[], events: number): number {
  const book = new NodejsOrderBook();
  const { type, side, price, quantity } = journal;
  const start = performance.now();
  for (let i = 0; i < events; i++) {
    if (type[i] === MSG_NEW) {
      book.limit({
        side: side[i] === SIDE_BUY ? Side.BUY : Side.SELL,
        id: ids[i]!,
        size: quantity[i]!,
        price: price[i]!,
      });
    } else book.cancel(ids[i]!);
  }
  return performance.now() - start;
}

const progress = (line: string) => console.error(`  … ${line}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const perSecond = (events: number, ms: number) => Math.round((events / ms) * 1000);
const fmt = (n: number) => n.toLocaleString('en-US');
const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;

interface MixResult {
  mix: string;
  events: number;
  restingAtEnd: number;
  engineOpsPerSecond: number;
  engineRuns: number[];
  gcDuringEngineRuns: number;
  latencyMicros: { p50: number; p99: number; p999: number; p9999: number; max: number };
  comparedEvents: number;
  engineOpsPerSecondOnCompared: number;
  nodejsOrderBookOpsPerSecond: number;
  ratio: number;
}

function measure(mix: Mix): MixResult {
  const journal = generateJournal(mix, EVENTS, SEED);
  const check = new MatchingEngine(BENCH_SPEC);
  for (let i = 0; i < journal.length; i++) {
    check.submit(
      i + 1,
      journal.type[i]!,
      journal.orderId[i]!,
      journal.side[i]!,
      journal.price[i]!,
      journal.quantity[i]!,
    );
    check.out.clear();
  }
  let levels = 0;
  check.book.forEachLevel(0, () => levels++);
  check.book.forEachLevel(1, () => levels++);
  console.log(
    `\n${mix.name}: ${fmt(EVENTS)} events (cancels ${Math.round(mix.cancelShare * 100)}%, crossing ${Math.round(mix.crossShare * 100)}%), ` +
      `book at the end: ${fmt(check.book.size)} orders on ${levels} levels`,
  );
  progress('engine: warm-up and measured runs');
  runEngine(journal); // warm-up
  const gcBefore = gcCount;
  const runs = Array.from({ length: RUNS }, () => runEngine(journal));
  const gcDuring = gcCount - gcBefore;
  progress('engine: latency pass');
  const times = latencies(journal);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  const ids = Array.from(journal.orderId, (id) => String(id));
  const compared = Math.min(EVENTS, mix.compareEvents ?? EVENTS);
  progress(`nodejs-order-book: ${RUNS + 1} runs of ${fmt(compared)} events`);
  runNodejsOrderBook(journal, ids, compared); // warm-up
  const theirs = Array.from({ length: RUNS }, () => runNodejsOrderBook(journal, ids, compared));
  const oursOnCompared = perSecond(
    compared,
    median(Array.from({ length: RUNS }, () => runEngine(journal, compared))),
  );
  const ours = perSecond(EVENTS, median(runs));
  const other = perSecond(compared, median(theirs));
  const result: MixResult = {
    mix: mix.name,
    events: EVENTS,
    restingAtEnd: check.book.size,
    engineOpsPerSecond: ours,
    engineRuns: runs.map((ms) => perSecond(EVENTS, ms)),
    gcDuringEngineRuns: gcDuring,
    latencyMicros: {
      p50: at(0.5) * 1000,
      p99: at(0.99) * 1000,
      p999: at(0.999) * 1000,
      p9999: at(0.9999) * 1000,
      max: times[times.length - 1]! * 1000,
    },
    comparedEvents: compared,
    engineOpsPerSecondOnCompared: oursOnCompared,
    nodejsOrderBookOpsPerSecond: other,
    ratio: oursOnCompared / other,
  };
  console.log(
    `  engine            ${fmt(ours)} ops/s (median of ${RUNS}; runs ${result.engineRuns.map(fmt).join(', ')})`,
  );
  console.log(`  GC events         ${gcDuring} during the ${RUNS} measured runs`);
  console.log(
    `  latency per op    p50 ${us(at(0.5))}  p99 ${us(at(0.99))}  p99.9 ${us(at(0.999))}  p99.99 ${us(at(0.9999))}  max ${us(times[times.length - 1]!)}`,
  );
  const on = compared === EVENTS ? 'the same journal' : `the first ${fmt(compared)} events of the journal`;
  console.log(`  nodejs-order-book ${fmt(other)} ops/s (median of ${RUNS}, on ${on})`);
  console.log(
    `  ratio             ${result.ratio.toFixed(1)}× faster (our engine on ${on}: ${fmt(oursOnCompared)} ops/s)`,
  );
  return result;
}

console.log(
  `matching engine benchmark · ${cpus()[0]?.model ?? 'CPU'} · ${cpus().length} cores · Node ${process.version}`,
);
console.log(
  `setup: one symbol, in process, seed ${SEED}, ${RUNS} runs per figure, output records cleared after each event`,
);
const results = [measure(MIXED), measure(DEEP_QUEUES)];

progress(`replay: generating a journal of ${fmt(REPLAY_EVENTS)} events`);
const replayJournal = generateJournal(MIXED, REPLAY_EVENTS, SEED + 1);
const replayMs = runEngine(replayJournal);
console.log(
  `\nreplay: rebuilt a book from a journal of ${fmt(REPLAY_EVENTS)} events in ${(replayMs / 1000).toFixed(2)} s: ${fmt(perSecond(REPLAY_EVENTS, replayMs))} events/s`,
);

const dir = fileURLToPath(new URL('../../../bench-results/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'exchange-engine.json'),
  `${JSON.stringify({ machine: `${cpus()[0]?.model} · ${cpus().length} cores · Node ${process.version}`, results, replay: { events: REPLAY_EVENTS, ms: replayMs, eventsPerSecond: perSecond(REPLAY_EVENTS, replayMs) } }, null, 2)}\n`,
);
console.log('results: bench-results/exchange-engine.json');
