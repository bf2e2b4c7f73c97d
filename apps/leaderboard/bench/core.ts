/**
 * The ranking core at the spec's scale: 25 million players in one month.
 *
 * - rebuild: a real SqliteWinLog holding one win per player (25 M wins) is read back and
 *   applied, as start-up does when a checkpoint is missing; read and apply are timed apart.
 * - updates: random wins for existing players (each is a treap remove + insert).
 * - rank reads: random players' standing (competition rank), and top-10 reads.
 * - memory: bytes of the ranking's typed arrays per player, and the heap/RSS growth.
 *
 * BENCH_USERS scales it down (default 25000000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { SqliteWinLog } from '../src/adapters/embedded/sqlite-win-log.ts';
import { Ranking } from '../src/core/ranking.ts';
import { machine, perSecond, printTable, progress, saveResults, seededRandom } from './report.ts';

const USERS = Number(process.env.BENCH_USERS ?? 25_000_000);
const OPS = 2_000_000;
const PERIOD = '2026-11';

function userId(i: number): string {
  // 24 characters, like the spec's ids.
  return `u${i.toString(16).padStart(23, '0')}`;
}

const random = seededRandom(42);

console.log(`leaderboard core benchmark · ${machine()}`);
console.log(
  `setup: ${USERS.toLocaleString('en-US')} players, one month, tie-break shared, ${OPS.toLocaleString('en-US')} ops per measure`,
);

const dir = mkdtempSync(join(tmpdir(), 'tessera-lb-bench-'));
try {
  // 1. Write the win log: one win per player, 1–10 points, in batched transactions (setup, not timed).
  const db = openSqlite(join(dir, 'wins.db'), { synchronous: 'normal' });
  const log = new SqliteWinLog(db);
  const insert = db.prepare(
    'INSERT INTO wins (seq, period, user_id, points, match_id, at) VALUES (?, ?, ?, ?, NULL, 0)',
  );
  const writeStart = performance.now();
  for (let i = 0; i < USERS; i += 100_000) {
    db.exec('BEGIN');
    for (let j = i; j < Math.min(USERS, i + 100_000); j++)
      insert.run(j + 1, PERIOD, userId(j), 1 + random(10));
    db.exec('COMMIT');
    progress('writing win log', Math.min(USERS, i + 100_000), USERS);
  }
  db.exec(`INSERT OR IGNORE INTO win_periods VALUES ('${PERIOD}')`);
  const writeMs = performance.now() - writeStart;

  // 2. Rebuild: read the log back and apply every win.
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = process.memoryUsage();
  const ranking = new Ranking('shared');
  let readMs = 0;
  let applyMs = 0;
  let applied = 0;
  let t0 = performance.now();
  for await (const batch of log.read(PERIOD, 0)) {
    const t1 = performance.now();
    readMs += t1 - t0;
    for (const win of batch) ranking.apply(win.seq, win.userId, win.points);
    t0 = performance.now();
    applyMs += t0 - t1;
    applied += batch.length;
    if (applied % 1_000_000 === 0) progress('rebuilding', applied, USERS);
  }
  (globalThis as { gc?: () => void }).gc?.();
  const heapAfter = process.memoryUsage();

  // 3. Updates: random wins for existing players.
  let seq = USERS;
  const ids = Array.from({ length: 1 << 16 }, () => userId(random(USERS)));
  let start = performance.now();
  for (let i = 0; i < OPS; i++) ranking.apply(++seq, ids[i & 0xffff]!, 1 + (i % 3));
  const updateMs = performance.now() - start;

  // 4. Rank reads.
  start = performance.now();
  let checksum = 0;
  for (let i = 0; i < OPS; i++) checksum += ranking.standing(ids[(i * 7) & 0xffff]!)!.rank;
  const rankMs = performance.now() - start;

  start = performance.now();
  const TOP_READS = 200_000;
  for (let i = 0; i < TOP_READS; i++) checksum += ranking.top(0, 10).length;
  const topMs = performance.now() - start;

  const bytesPerPlayer = ranking.byteLength / ranking.size;
  const rows: Array<[string, string]> = [
    ['players', ranking.size.toLocaleString('en-US')],
    [
      'rebuild from win log (total)',
      `${((readMs + applyMs) / 1000).toFixed(1)} s (${perSecond(applied, readMs + applyMs)} wins)`,
    ],
    ['  of which reading SQLite', `${(readMs / 1000).toFixed(1)} s`],
    ['  of which applying', `${(applyMs / 1000).toFixed(1)} s (${perSecond(applied, applyMs)})`],
    ['score updates (core)', perSecond(OPS, updateMs)],
    ['rank reads (core)', perSecond(OPS, rankMs)],
    ['top-10 reads (core)', perSecond(TOP_READS, topMs)],
    ['ranking memory per player', `${bytesPerPlayer.toFixed(1)} bytes (typed arrays, capacity)`],
    ['RSS growth per player', `${((heapAfter.rss - heapBefore.rss) / USERS).toFixed(1)} bytes`],
    ['(setup) writing the win log', `${(writeMs / 1000).toFixed(1)} s`],
  ];
  printTable('results', rows);
  saveResults('leaderboard-core', {
    machine: machine(),
    players: USERS,
    rebuildSeconds: (readMs + applyMs) / 1000,
    rebuildReadSeconds: readMs / 1000,
    rebuildApplySeconds: applyMs / 1000,
    updatesPerSecond: (OPS / updateMs) * 1000,
    rankReadsPerSecond: (OPS / rankMs) * 1000,
    topReadsPerSecond: (TOP_READS / topMs) * 1000,
    bytesPerPlayer,
    rssBytesPerPlayer: (heapAfter.rss - heapBefore.rss) / USERS,
    checksum,
  });
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
