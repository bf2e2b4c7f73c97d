/**
 * The matching engine core, one symbol, in process (issue #3's benchmark).
 *
 * For each scenario (see stream.ts), on one generated journal:
 * - throughput: the journal replayed through a fresh engine, median of RUNS runs after a warm-up,
 *   with the GC events counted over the measured runs (bench/gc-count.ts; each engine is
 *   built before its run's clock and count start, as a pod builds its book once);
 * - latency: a separate pass timing each event with performance.now() into an HDR histogram;
 * - nodejs-order-book: the same journal (or its first `compareEvents`) through its limit() and
 *   cancel(), same number of runs, and our engine on exactly the same events for the ratio;
 * - exchange-core (bench/exchange-core.ts): the whole journal through its order book in a JVM,
 *   same number of measured runs after its own warm-up, and a latency pass (issue #12);
 * - replay: a journal of REPLAY_EVENTS events rebuilt into a book from scratch, events/s.
 * Prints the setup and a table, and writes bench-results/exchange-engine.json at the repo root.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MSG_NEW } from '../src/core/codes.ts';
import { MatchingEngine } from '../src/core/engine.ts';
import { GcCounter } from './gc-count.ts';
import { latencies, runEngine, runNodejsOrderBook, timerOverhead } from './runners.ts';
import { buildExchangeCore, runExchangeCore } from './exchange-core.ts';
import {
  BENCH_SPEC,
  generateJournal,
  LAGGING_CANCELS,
  MIXED,
  RANDOM_CANCELS,
  type Journal,
  type Mix,
} from './stream.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000_000);
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SEED = Number(process.env.BENCH_SEED ?? 42);
/** At most this many events go through nodejs-order-book (it is slow on long queues). */
const COMPARE_CAP = Number(process.env.BENCH_COMPARE_EVENTS ?? Infinity);
/** exchange-core side by side (needs Java 17 and Maven); BENCH_EXCHANGE_CORE=0 leaves it out. */
const EXCHANGE_CORE = process.env.BENCH_EXCHANGE_CORE !== '0';

// Needs --expose-gc (npm run bench passes it): the counter checks, and lends its collector.
const gcs = new GcCounter();

/**
 * Runs `work` on an engine built beforehand: the result and the GCs that started while `work`
 * ran. The garbage of the setup (journal generation, earlier runs) and the engine's ladder
 * arrays, its one big allocation, are collected first, so the count is what the run caused.
 */
function onFreshEngine<T>(work: (engine: MatchingEngine) => T): Promise<{ result: T; gc: number }> {
  const engine = new MatchingEngine(BENCH_SPEC);
  gcs.collect();
  return gcs.count(() => work(engine));
}

/** `runs` throughput runs of the first `events` of a journal: milliseconds each, GC events in all. */
async function throughputRuns(journal: Journal, events: number, runs: number) {
  const ms: number[] = [];
  let gc = 0;
  for (let i = 0; i < runs; i++) {
    const run = await onFreshEngine((engine) => runEngine(engine, journal, events));
    ms.push(run.result);
    gc += run.gc;
  }
  return { ms, gc };
}

const progress = (line: string) => console.error(`  … ${line}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const perSecond = (events: number, ms: number) => Math.round((events / ms) * 1000);
const fmt = (n: number) => n.toLocaleString('en-US');
const micros = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;

/** The book after the first `events` of a journal: resting orders and levels. */
function bookAfter(journal: Journal, events: number): { orders: number; levels: number } {
  const engine = new MatchingEngine(BENCH_SPEC);
  runEngine(engine, journal, events);
  let levels = 0;
  engine.book.forEachLevel(0, () => {
    levels++;
  });
  engine.book.forEachLevel(1, () => {
    levels++;
  });
  return { orders: engine.book.size, levels };
}

function describe(mix: Mix, journal: Journal): string {
  let cancels = 0;
  for (let i = 0; i < journal.length; i++) if (journal.type[i] !== MSG_NEW) cancels++;
  const share = (n: number) => `${Math.round((n / journal.length) * 100)}%`;
  const target = mix.cancels === 'any' ? 'any resting order' : 'orders near the oldest';
  return (
    `${fmt(journal.length)} events: ${share(journal.length - cancels)} new (about ${Math.round(mix.crossShare * 100)}% of all crossing the touch), ` +
    `${share(cancels)} cancels of ${target}; book kept near ${fmt(mix.targetOrders)} orders over up to ${mix.depthLevels} levels per side`
  );
}

async function measure(mix: Mix) {
  progress(`${mix.name}: generating ${fmt(EVENTS)} events`);
  const journal = generateJournal(mix, EVENTS, SEED);
  const compared = Math.min(EVENTS, mix.compareEvents ?? EVENTS, COMPARE_CAP);
  const atEnd = bookAfter(journal, EVENTS);
  const atCompared = compared === EVENTS ? atEnd : bookAfter(journal, compared);
  console.log(`\n${mix.name}: ${describe(mix, journal)}`);
  console.log(`  book at the end: ${fmt(atEnd.orders)} orders on ${atEnd.levels} levels`);

  progress(`${mix.name}: engine, warm-up and ${RUNS} measured runs`);
  await throughputRuns(journal, EVENTS, 1); // warm-up
  const { ms: runs, gc: gcThroughput } = await throughputRuns(journal, EVENTS, RUNS);
  progress(`${mix.name}: engine, latency pass`);
  await onFreshEngine((engine) => latencies(engine, journal)); // warm-up of the timed loop itself
  const { result: h, gc: gcLatency } = await onFreshEngine((engine) => latencies(engine, journal));

  progress(`${mix.name}: nodejs-order-book, warm-up and ${RUNS} runs of ${fmt(compared)} events`);
  const ids = Array.from(journal.orderId.subarray(0, compared), (id) => String(id));
  runNodejsOrderBook(journal, ids, compared);
  const theirs = Array.from({ length: RUNS }, () => runNodejsOrderBook(journal, ids, compared));
  const oursOnCompared = compared === EVENTS ? runs : (await throughputRuns(journal, compared, RUNS)).ms;

  let exchangeCore;
  if (classpath !== undefined) {
    progress(`${mix.name}: exchange-core, warm-up and ${RUNS} runs of ${fmt(EVENTS)} events, latency pass`);
    const ec = runExchangeCore(classpath, journal, RUNS);
    exchangeCore = {
      opsPerSecond: median([...ec.runs]),
      runs: ec.runs,
      latencyNs: ec.latencyNs,
    };
  }

  const engineOps = perSecond(EVENTS, median(runs));
  const comparedOurs = perSecond(compared, median(oursOnCompared));
  const comparedTheirs = perSecond(compared, median(theirs));
  return {
    scenario: mix.name,
    mix,
    events: EVENTS,
    book: atEnd,
    engine: {
      opsPerSecond: engineOps,
      runs: runs.map((ms) => perSecond(EVENTS, ms)),
      gcEventsInMeasuredRuns: gcThroughput,
      gcEventsInLatencyPass: gcLatency,
      latencyNs: {
        p50: h.getValueAtPercentile(50),
        p99: h.getValueAtPercentile(99),
        p999: h.getValueAtPercentile(99.9),
        p9999: h.getValueAtPercentile(99.99),
        max: h.maxValue,
        mean: Math.round(h.mean),
      },
    },
    exchangeCore:
      exchangeCore === undefined
        ? undefined
        : {
            ...exchangeCore,
            opsRatio: engineOps / exchangeCore.opsPerSecond,
            p99Ratio: h.getValueAtPercentile(99) / exchangeCore.latencyNs.p99,
          },
    comparison: {
      events: compared,
      bookAtEnd: atCompared,
      engineOpsPerSecond: comparedOurs,
      nodejsOrderBookOpsPerSecond: comparedTheirs,
      nodejsOrderBookRuns: theirs.map((ms) => perSecond(compared, ms)),
      ratio: comparedOurs / comparedTheirs,
    },
  };
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const machine = `${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
console.log('matching engine core benchmark (issue #3), with exchange-core side by side (issue #12)');
console.log(`machine: ${machine}`);
console.log(
  `setup:   one symbol (tick 1, lot 1, band ${fmt(BENCH_SPEC.minPrice)}–${fmt(BENCH_SPEC.maxPrice)}), in process, one thread; ` +
    `seed ${SEED}; ${RUNS} measured runs per throughput figure (median), after a warm-up`,
);
console.log(
  '         throughput and latency are separate passes; latency: every operation timed on its own with ' +
    'performance.now() into an HDR histogram (ns, 3 significant digits)',
);

const classpath = EXCHANGE_CORE ? buildExchangeCore() : undefined;
const overhead = timerOverhead(1_000_000);
const results = [await measure(MIXED), await measure(LAGGING_CANCELS), await measure(RANDOM_CANCELS)];

progress(`replay: generating a journal of ${fmt(REPLAY_EVENTS)} events`);
const replayJournal = generateJournal(MIXED, REPLAY_EVENTS, SEED + 1);
progress('replay: rebuilding the book');
const { result: replayMs, gc: replayGc } = await onFreshEngine((engine) => runEngine(engine, replayJournal));
const replay = {
  events: REPLAY_EVENTS,
  ms: Math.round(replayMs),
  eventsPerSecond: perSecond(REPLAY_EVENTS, replayMs),
  gcEvents: replayGc,
};

console.log('\nresults');
const rows = [
  ['', ...results.map((r) => r.scenario)],
  ['engine ops/s (median)', ...results.map((r) => fmt(r.engine.opsPerSecond))],
  ['  runs', ...results.map((r) => r.engine.runs.map((n) => (n / 1e6).toFixed(2)).join(' ') + ' M')],
  ['latency p50', ...results.map((r) => micros(r.engine.latencyNs.p50))],
  ['latency p99', ...results.map((r) => micros(r.engine.latencyNs.p99))],
  ['latency p99.9', ...results.map((r) => micros(r.engine.latencyNs.p999))],
  ['latency p99.99', ...results.map((r) => micros(r.engine.latencyNs.p9999))],
  ['latency worst', ...results.map((r) => micros(r.engine.latencyNs.max))],
  ['GC events, measured runs', ...results.map((r) => String(r.engine.gcEventsInMeasuredRuns))],
  ['GC events, latency pass', ...results.map((r) => String(r.engine.gcEventsInLatencyPass))],
  ['compared on (events)', ...results.map((r) => fmt(r.comparison.events))],
  [
    '  book then (orders/levels)',
    ...results.map((r) => `${fmt(r.comparison.bookAtEnd.orders)} / ${r.comparison.bookAtEnd.levels}`),
  ],
  ['  engine ops/s', ...results.map((r) => fmt(r.comparison.engineOpsPerSecond))],
  ['  nodejs-order-book ops/s', ...results.map((r) => fmt(r.comparison.nodejsOrderBookOpsPerSecond))],
  ['  ratio', ...results.map((r) => `${r.comparison.ratio.toFixed(1)}×`)],
  ...(classpath === undefined
    ? []
    : [
        ['exchange-core ops/s (median)', ...results.map((r) => fmt(r.exchangeCore!.opsPerSecond))],
        [
          '  runs',
          ...results.map((r) => r.exchangeCore!.runs.map((n) => (n / 1e6).toFixed(2)).join(' ') + ' M'),
        ],
        ['  latency p50', ...results.map((r) => micros(r.exchangeCore!.latencyNs.p50))],
        ['  latency p99', ...results.map((r) => micros(r.exchangeCore!.latencyNs.p99))],
        ['  latency p99.9', ...results.map((r) => micros(r.exchangeCore!.latencyNs.p999))],
        ['  engine ÷ exchange-core, ops/s', ...results.map((r) => `${r.exchangeCore!.opsRatio.toFixed(2)}×`)],
        ['  engine ÷ exchange-core, p99', ...results.map((r) => `${r.exchangeCore!.p99Ratio.toFixed(2)}×`)],
      ]),
];
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
for (const row of rows)
  console.log(
    `  ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('   ')}`,
  );
console.log(
  `  (timer overhead inside each latency sample: p50 ${micros(overhead.getValueAtPercentile(50))}, p99 ${micros(overhead.getValueAtPercentile(99))})`,
);
console.log(
  `\nreplay: a book rebuilt from a journal of ${fmt(REPLAY_EVENTS)} events in ${(replayMs / 1000).toFixed(2)} s: ` +
    `${fmt(replay.eventsPerSecond)} events/s (${replayGc} GC events)`,
);

const mixed = results[0]!;
const lagging = results[1]!;
const checks: Array<[string, boolean]> = [
  ['≥ 2,000,000 ops/s (mixed)', mixed.engine.opsPerSecond >= 2_000_000],
  ['p99 ≤ 5 µs (mixed)', mixed.engine.latencyNs.p99 <= 5_000],
  ['no GC in the measured runs', results.every((r) => r.engine.gcEventsInMeasuredRuns === 0)],
  ['≥ 10× nodejs-order-book (mixed)', mixed.comparison.ratio >= 10],
  [
    'no degradation with lagging cancels (≥ 90% of mixed ops/s)',
    lagging.engine.opsPerSecond >= 0.9 * mixed.engine.opsPerSecond,
  ],
  ...(classpath === undefined
    ? []
    : ([
        [
          'ahead of exchange-core on every workload (ops/s higher, p99 not higher)',
          results.every((r) => r.exchangeCore!.opsRatio > 1 && r.exchangeCore!.p99Ratio <= 1),
        ],
      ] as Array<[string, boolean]>)),
];
console.log(`targets: ${checks.map(([name, ok]) => `${ok ? '✓' : '✗'} ${name}`).join('; ')}`);

const dir = fileURLToPath(new URL('../../../bench-results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const file = join(dir, 'exchange-engine.json');
const report = {
  benchmark: 'exchange matching engine core',
  machine,
  seed: SEED,
  runs: RUNS,
  latencyMethod: 'per-operation performance.now() into an HDR histogram (ns)',
  timerOverheadNs: { p50: overhead.getValueAtPercentile(50), p99: overhead.getValueAtPercentile(99) },
  results,
  replay,
  targets: Object.fromEntries(checks),
};
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
console.log(`results written to ${file}`);
