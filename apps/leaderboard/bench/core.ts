/**
 * The ranking core at the spec's scale: 25 million players in one month, both tie-break modes.
 *
 * - rebuild: a real win log (wins.db) holding one win per player (25 M wins) is read back and
 *   applied, as start-up does when a checkpoint is missing: read as the embedded WorkerWinLog
 *   reads a replay (ThreadedWinLogReads: a thread of its own, a batch ahead), so "reading" is
 *   what the event loop still waits for and spends turning columns into wins. The read alone is
 *   also timed through a lean query on this thread (three columns, rows as arrays).
 *   The replay is first sized from the log's estimate of its players (its sketch, kept by the
 *   writer as it appends, written here by the setup the same way), as the catch-up does;
 *   BENCH_RESERVE=0 replays without it, growing the ranking as it goes.
 * - updates: random wins for existing players; rank reads: random players' standing; top-10 reads.
 *   Each is measured ROUNDS times; the median is reported (the spread is printed too).
 * - memory: first, before anything else is allocated, a ranking of USERS players is built from
 *   generated ids and measured: RSS growth after a full GC, and the typed arrays' capacity. (The
 *   RSS growth over a rebuild from SQLite is printed too, but it also holds SQLite's cache and
 *   the heap the read left behind.) Other id shapes are measured at a smaller size: the cost per
 *   player does not depend on the count.
 *
 * Run with `node --expose-gc` so that the RSS figures are taken after a full collection.
 * BENCH_USERS scales it down (default 25000000). BENCH_TIE_BREAKS picks the modes (default
 * `shared,earliest`): one per process compares them fairly (a second rebuild in one process runs
 * on the first one's freed memory and SQLite cache). BENCH_MEMORY=0 and BENCH_SHAPES=0 skip the
 * memory build and the id shapes, BENCH_RATES=0 the rates after the rebuild. BENCH_WIN_LOG=path
 * writes the win log there (kept) or reuses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { ThreadedWinLogReads } from '../src/adapters/embedded/threaded-win-log-reads.ts';
import { ensureWinSchema } from '../src/adapters/embedded/win-batch-writer.ts';
import { PlayerSketch, RAISE_REGISTER } from '../src/adapters/embedded/player-sketch.ts';
import { WinLogReads } from '../src/adapters/embedded/win-log-reads.ts';
import { Ranking } from '../src/core/ranking.ts';
import { TIE_BREAKS, TOP_LIST_SIZE, type TieBreak } from '../src/core/standing.ts';
import { flat, hexId } from './core-ids.ts';
import { measure, rate, type Rate } from './core-rates.ts';
import { gc, idShapes, measureMemory, settle } from './core-memory.ts';
import { machine, perSecond, printTable, progress, saveResults } from './report.ts';
import { seededRandom } from '@tessera/testkit';

const USERS = Number(process.env.BENCH_USERS ?? 25_000_000);
const OPS = 1_000_000;
const TOP_READS = 200_000;
const ROUNDS = 5;
const SHAPE_USERS = Math.min(USERS, 2_000_000);
const PERIOD = '2026-11';
const RESERVE = process.env.BENCH_RESERVE !== '0';
/** BENCH_RATES=0: the rebuild alone (a profile of it, a faster A/B of it). */
const RATES = process.env.BENCH_RATES !== '0';
const MODES = (process.env.BENCH_TIE_BREAKS?.split(',') ?? TIE_BREAKS).map((mode) => {
  if (!(TIE_BREAKS as readonly string[]).includes(mode)) throw new Error(`unknown tie-break ${mode}`);
  return mode as TieBreak;
});

/** The load average, printed beside every figure (the machine is shared). */
function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** CPU milliseconds this thread has used (the reading thread's are not counted). */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

const random = seededRandom(42);
/** The log's points: a stream of their own, so that a reused log leaves `random` where a written one does. */
const logRandom = seededRandom(43);

console.log(`leaderboard core benchmark · ${machine()}`);
console.log(
  `setup: ${USERS.toLocaleString('en-US')} players (24-char hex ids), one win each in a node:sqlite win log, ` +
    `tie-break ${MODES.join(' and ')}; ${OPS.toLocaleString('en-US')} updates and rank reads and ${TOP_READS.toLocaleString('en-US')} top-10 reads per round, median of ${ROUNDS} rounds; ` +
    `gc ${gc === undefined ? 'NOT exposed (run with --expose-gc)' : 'exposed'}; load average ${load()}`,
);

const results: Record<string, unknown> = { machine: machine(), players: USERS, loadAtStart: load() };
if (process.env.BENCH_MEMORY !== '0') results.memory = await measureMemory(USERS, random);

const dir = mkdtempSync(join(tmpdir(), 'tessera-lb-bench-'));
// BENCH_WIN_LOG=path keeps the win log there and reuses it when it already holds USERS wins:
// writing it is setup, minutes at 25 M, and an A/B comparison runs the benchmark several times.
const logPath = process.env.BENCH_WIN_LOG ?? join(dir, 'wins.db');
try {
  const db = openSqlite(logPath, { synchronous: 'normal' });
  ensureWinSchema(db);
  const held = db.prepare('SELECT last_seq FROM win_periods WHERE period = ?').get(PERIOD) as
    { last_seq: number } | undefined;
  if (held?.last_seq === USERS) printTable('setup', [['win log', `reused ${logPath}`]]);
  else writeWinLog(db);
  // 2. The read alone, through a lean query: what a columnar read in the adapter would cost.
  const lean = db.prepare(
    'SELECT seq, user_id, points FROM wins WHERE period = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  lean.setReturnArrays(true);
  let leanRows = 0;
  const leanStart = performance.now();
  for (let from = 0; ;) {
    const rows = lean.all(PERIOD, from, 10_000) as unknown as Array<[number, string, number]>;
    if (rows.length === 0) break;
    leanRows += rows.length;
    from = rows[rows.length - 1]![0];
    progress('lean read', leanRows, USERS);
  }
  const leanReadMs = performance.now() - leanStart;
  results.leanReadSeconds = leanReadMs / 1000;

  const replays = new ThreadedWinLogReads(logPath);
  const reads = new WinLogReads(db);
  const players = (): number => (RESERVE ? reads.players(PERIOD) : 0);
  for (const tieBreak of MODES) results[tieBreak] = await benchMode(tieBreak, replays, leanReadMs, players);
  if (process.env.BENCH_SHAPES !== '0') results.idShapes = idShapes(SHAPE_USERS);
  const loadAtEnd = load();
  results.loadAtEnd = loadAtEnd;
  console.log(`\nload average at the end ${loadAtEnd}`);
  db.close();
  saveResults('leaderboard-core', results);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes the win log: one win per player, 1–10 points, in batched transactions (setup, not timed). */
function writeWinLog(db: ReturnType<typeof openSqlite>): void {
  const insert = db.prepare(
    'INSERT INTO wins (seq, period, user_id, points, match_id, at) VALUES (?, ?, ?, ?, NULL, 0)',
  );
  const sketch = new PlayerSketch();
  const writeStart = performance.now();
  for (let i = 0; i < USERS; i += 100_000) {
    db.exec('BEGIN');
    for (let j = i; j < Math.min(USERS, i + 100_000); j++) {
      const id = hexId(j);
      insert.run(j + 1, PERIOD, id, 1 + logRandom(10));
      sketch.add(id);
    }
    db.exec('COMMIT');
    progress('writing win log', Math.min(USERS, i + 100_000), USERS);
  }
  // The period's seq range, as the win log's writer keeps it: a replay scans only that range.
  db.prepare('INSERT INTO win_periods (period, first_seq, last_seq) VALUES (?, 1, ?)').run(PERIOD, USERS);
  // And its sketch of the players, which the writer keeps register by register as it appends.
  const raise = db.prepare(RAISE_REGISTER);
  db.exec('BEGIN');
  sketch.registers.forEach((rank, register) => rank > 0 && raise.run(PERIOD, register, rank));
  db.exec('COMMIT');
  const writeMs = performance.now() - writeStart;
  printTable('setup', [['writing the win log (not timed below)', `${(writeMs / 1000).toFixed(1)} s`]]);
}

async function benchMode(
  tieBreak: TieBreak,
  replays: ThreadedWinLogReads,
  leanReadMs: number,
  players: () => number,
): Promise<Record<string, number>> {
  console.log(`\n== tie-break ${tieBreak}`);
  // Rebuild: read the log back through the adapter and apply every win.
  const beforeOrdinaryGc = await settle();
  const before = process.memoryUsage().rss;
  const ranking = new Ranking(tieBreak);
  let readMs = 0;
  let applyMs = 0;
  let applyCpuMs = 0;
  let applied = 0;
  const loadBefore = load();
  // Sized once from the log's estimate (0: not sized), as the catch-up does before it replays.
  const sizing = performance.now();
  const sizingCpu = threadCpuMs();
  const estimate = players();
  ranking.reserve(estimate);
  const sizingMs = performance.now() - sizing;
  applyCpuMs += threadCpuMs() - sizingCpu;
  let t0 = performance.now();
  for await (const batch of replays.read(PERIOD, 0)) {
    const t1 = performance.now();
    readMs += t1 - t0;
    const cpu = threadCpuMs();
    ranking.applyBatch(batch);
    applyCpuMs += threadCpuMs() - cpu;
    t0 = performance.now();
    applyMs += t0 - t1;
    applied += batch.length;
    if (applied % 1_000_000 === 0 || applied === USERS) progress(`rebuilding (${tieBreak})`, applied, USERS);
  }
  // A replay that read less than the log (a wrong seq range) would time nothing: refuse it.
  if (applied !== USERS) throw new Error(`the replay read ${applied} wins of ${USERS}`);
  // The players met in the replay are placed at the first read, all at once: part of the rebuild.
  const placing = performance.now();
  const placingCpu = threadCpuMs();
  ranking.top(0, 1);
  applyMs += sizingMs + performance.now() - placing;
  const placingCpuMs = threadCpuMs() - placingCpu;
  applyCpuMs += placingCpuMs;
  const loadAfter = load();
  const rssPerPlayer = ((await settle()) - beforeOrdinaryGc) / USERS;
  const rssPerPlayerAfterReducingGc = (process.memoryUsage().rss - before) / USERS;
  const bytesPerPlayer = ranking.byteLength / ranking.size;

  let seq = USERS;
  const ids = flat(Array.from({ length: 1 << 16 }, () => hexId(random(USERS))));
  let checksum = 0;
  let k = 0;
  const measured = (count: number, body: () => void): Rate =>
    RATES ? measure(ROUNDS, count, body) : { rate: 0, min: 0, max: 0, cpuRate: 0 };
  const updates = measured(OPS, () => {
    for (let i = 0; i < OPS; i++, k++) ranking.apply(++seq, ids[k & 0xffff]!, 1 + (k % 3));
  });
  const ranks = measured(OPS, () => {
    for (let i = 0; i < OPS; i++, k++) checksum += ranking.standing(ids[(k * 7) & 0xffff]!)!.rank;
  });
  const tops = measured(TOP_READS, () => {
    for (let i = 0; i < TOP_READS; i++) checksum += ranking.top(0, TOP_LIST_SIZE).length;
  });
  // The top list is kept between wins that do not touch it; from offset 1 it is walked every time.
  const walks = measured(TOP_READS, () => {
    for (let i = 0; i < TOP_READS; i++) checksum += ranking.top(1, TOP_LIST_SIZE).length;
  });
  const arounds = measured(TOP_READS, () => {
    for (let i = 0; i < TOP_READS; i++, k++) checksum += ranking.around(ids[k & 0xffff]!, 4)!.length;
  });

  printTable(`results (${tieBreak})`, [
    ['players', ranking.size.toLocaleString('en-US')],
    [
      'rebuild from the win log (threaded read + apply)',
      `${((readMs + applyMs) / 1000).toFixed(1)} s: ${(readMs / 1000).toFixed(1)} s reading, ${(applyMs / 1000).toFixed(1)} s applying (${perSecond(applied, applyMs)})`,
    ],
    [
      '  applying, CPU time of this thread',
      `${(applyCpuMs / 1000).toFixed(1)} s (${perSecond(applied, applyCpuMs)}), of which placing ${(placingCpuMs / 1000).toFixed(1)} s`,
    ],
    [
      '  sized first from the log (estimate, time)',
      estimate > 0 ? `${estimate.toLocaleString('en-US')} players, ${sizingMs.toFixed(0)} ms` : 'not sized',
    ],
    ['  load average before / after', `${loadBefore} / ${loadAfter}`],
    [
      '  with a lean read (3 columns, rows as arrays)',
      `${((leanReadMs + applyMs) / 1000).toFixed(1)} s: ${(leanReadMs / 1000).toFixed(1)} s reading`,
    ],
    ['score updates', rate(updates)],
    ['rank reads', rate(ranks)],
    ['top-10 reads (the kept list)', rate(tops)],
    ['top-10 reads walked (offset 1)', rate(walks)],
    ['around ±4 reads', rate(arounds)],
    ['typed arrays per player (capacity)', `${bytesPerPlayer.toFixed(1)} bytes`],
    ['RSS growth over the rebuild per player (with SQLite)', `${rssPerPlayer.toFixed(1)} bytes`],
    ['  after a memory-reducing GC', `${rssPerPlayerAfterReducingGc.toFixed(1)} bytes`],
  ]);
  return {
    rebuildSeconds: (readMs + applyMs) / 1000,
    rebuildReadSeconds: readMs / 1000,
    rebuildApplySeconds: applyMs / 1000,
    rebuildApplyCpuSeconds: applyCpuMs / 1000,
    rebuildPlacingCpuSeconds: placingCpuMs / 1000,
    rebuildSizingMs: sizingMs,
    playersEstimate: estimate,
    updatesPerSecond: updates.rate,
    rankReadsPerSecond: ranks.rate,
    topReadsPerSecond: tops.rate,
    topWalksPerSecond: walks.rate,
    aroundReadsPerSecond: arounds.rate,
    updatesPerCpuSecond: updates.cpuRate,
    rankReadsPerCpuSecond: ranks.cpuRate,
    topReadsPerCpuSecond: tops.cpuRate,
    topWalksPerCpuSecond: walks.cpuRate,
    bytesPerPlayer,
    rssBytesPerPlayer: rssPerPlayer,
    rssBytesPerPlayerAfterReducingGc: rssPerPlayerAfterReducingGc,
    checksum,
  };
}
