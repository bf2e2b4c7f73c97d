import { getHeapSpaceStatistics } from 'node:v8';
import t from 'tap';
import { MatchingEngine } from '../../src/core/engine.ts';
import { GcCounter } from '../../bench/gc-count.ts';
import { runEngine } from '../../bench/runners.ts';
import { BENCH_SPEC, generateJournal, MIXED } from '../../bench/stream.ts';

// The benchmark's "0 GC events" is only worth something if the counter sees the GCs there are.
const gcs = new GcCounter();
t.teardown(() => gcs.disconnect());
const collect = (globalThis as { gc?: () => void }).gc;

t.test('a loop that allocates is seen to cause GCs', async (t) => {
  const { gc } = await gcs.count(() => {
    let kept: Array<{ i: number }> = [];
    for (let i = 0; i < 5_000_000; i++) {
      kept.push({ i });
      if (kept.length > 1_000) kept = [];
    }
    return kept.length;
  });
  t.ok(gc > 0, `${gc} GCs counted`);
});

t.test(
  'collect() is a collection the counter sees (bench/engine.ts clears setup garbage with it)',
  async (t) => {
    const { gc } = await gcs.count(() => gcs.collect());
    t.ok(gc >= 1, `${gc} GCs counted`);
  },
);

/** Bytes in use in V8's young generation, where new objects go (a scavenge empties it). */
const youngBytes = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_used_size;

t.test("the engine's hot path allocates nothing (replaying a journal through a built engine)", async (t) => {
  t.ok(collect, 'the tests run with --expose-gc, to start from a collected heap');
  const events = 1_000_000;
  const journal = generateJournal(MIXED, events, 7);
  const warm = new MatchingEngine(BENCH_SPEC);
  runEngine(warm, journal); // let the optimising compiler settle first, as the benchmark's warm-up does
  const engine = new MatchingEngine(BENCH_SPEC);
  collect?.();
  let grown = 0;
  const { gc } = await gcs.count(() => {
    const before = youngBytes();
    runEngine(engine, journal);
    grown = youngBytes() - before;
  });
  t.equal(gc, 0, `no GC while ${events} events were matched`);
  // Too little to cause a GC is still an allocation. Without a GC the young generation's growth
  // is what the run allocated: a few hundred KB whatever the length (the clock readings, the
  // heap statistics themselves), while anything allocated per event is at least 12 bytes (a
  // heap number, the smallest object) times a million.
  const perEvent = grown / events;
  t.ok(perEvent < 4, `${perEvent.toFixed(2)} bytes allocated per event (${grown} in all)`);
});
