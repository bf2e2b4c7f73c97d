import { setTimeout as sleep } from 'node:timers/promises';
import { Ranking } from '../src/core/ranking.ts';
import { hexId, ID_SHAPES } from './core-ids.ts';
import { perSecond, printTable, progress } from './report.ts';

// The core benchmark's memory figures: bytes per player, measured after full collections.

/** V8's gc() under --expose-gc; a 'last-resort' collection also gives back the young generation. */
type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
export const gc = (globalThis as { gc?: Gc }).gc;

/** Ids made at a time for the memory figure's build (outside its clock). */
const CHUNK = 1 << 16;

/**
 * A full GC, then again after V8's array-buffer sweeper (a thread of its own) has freed what the
 * first one found dead: RSS read right after a single gc() still holds those buffers. Then a
 * memory-reducing one ('last-resort'): an ordinary gc() leaves V8 holding the pages a burst of
 * short-lived objects (the id strings of a build or a replay) made it take, in its young generation
 * or its pool of free pages, which is V8's and not the ranking's. Returns the RSS before that one.
 */
export async function settle(): Promise<number> {
  gc?.();
  await sleep(500);
  gc?.();
  const rss = process.memoryUsage().rss;
  gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return rss;
}

/** Bytes per player of a ranking built from generated hex ids, in a process that holds nothing else yet. */
export async function measureMemory(
  users: number,
  random: (n: number) => number,
): Promise<Record<string, number>> {
  // Each figure against the baseline taken the same way: after an ordinary GC, and after a reducing one.
  const rssBeforeOrdinaryGc = await settle();
  const before = process.memoryUsage();
  const ranking = new Ranking('shared');
  // Only the applying is timed: the ids are made a chunk at a time outside the clock (making a
  // hex id took as long as applying it, and was counted in this figure before).
  const chunk: string[] = [];
  const points = new Int32Array(CHUNK);
  let buildMs = 0;
  for (let from = 0; from < users; from += CHUNK) {
    const to = Math.min(users, from + CHUNK);
    chunk.length = 0;
    for (let i = from; i < to; i++) {
      chunk.push(hexId(i));
      points[i - from] = 1 + random(10);
    }
    const start = performance.now();
    for (let i = from; i < to; i++) ranking.apply(i + 1, chunk[i - from]!, points[i - from]!);
    buildMs += performance.now() - start;
    if (Math.floor(to / 1_000_000) > Math.floor(from / 1_000_000) || to === users)
      progress('building for the memory figure', to, users);
  }
  chunk.length = 0;
  // New players are placed at the first read, all at once.
  const placing = performance.now();
  ranking.top(0, 1);
  buildMs += performance.now() - placing;
  const rssAfterGc = await settle();
  const after = process.memoryUsage();
  const figures = {
    // The ordinary-GC figure keeps the name earlier runs used; the memory-reducing one is new.
    rssBytesPerPlayer: (rssAfterGc - rssBeforeOrdinaryGc) / users,
    rssBytesPerPlayerAfterReducingGc: (after.rss - before.rss) / users,
    heapBytesPerPlayer: (after.heapUsed - before.heapUsed) / users,
    typedArrayBytesPerPlayer: ranking.byteLength / ranking.size,
    applyPerSecond: (users / buildMs) * 1000,
  };
  printTable('memory (24-char hex ids; the same arrays in both tie-break modes)', [
    ['players', ranking.size.toLocaleString('en-US')],
    ['RSS growth per player, after a full GC', `${figures.rssBytesPerPlayer.toFixed(1)} bytes`],
    [
      '  after a memory-reducing GC (V8 returns its free pages)',
      `${figures.rssBytesPerPlayerAfterReducingGc.toFixed(1)} bytes`,
    ],
    ['  of which JS heap', `${figures.heapBytesPerPlayer.toFixed(1)} bytes`],
    ['typed arrays per player (capacity)', `${figures.typedArrayBytesPerPlayer.toFixed(1)} bytes`],
    ['(building it: new players applied)', perSecond(users, buildMs)],
  ]);
  return figures;
}

/** Bytes per player of other id shapes (typed-array capacity), at `users` players. */
export function idShapes(users: number): Record<string, number> {
  const rows: Array<[string, string]> = [];
  const figures: Record<string, number> = {};
  for (const [name, id] of [['24-char hex (as above)', hexId] as const, ...ID_SHAPES]) {
    const ranking = new Ranking('shared');
    for (let i = 0; i < users; i++) ranking.apply(i + 1, id(i), 1 + (i % 10));
    ranking.top(0, 1); // places the players
    figures[name] = ranking.byteLength / ranking.size;
    rows.push([name, `${figures[name].toFixed(1)} bytes (e.g. ${id(12345)})`]);
  }
  printTable(`memory per player by id shape (typed arrays, ${users.toLocaleString('en-US')} players)`, rows);
  return figures;
}
