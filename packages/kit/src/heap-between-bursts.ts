import { setFlagsFromString } from 'node:v8';

/**
 * Turns V8's memory reducer off for this process (and the worker threads it starts afterwards).
 * A server's heap grows to what its busiest moments need; when the load drops, the reducer runs
 * compacting full collections to hand that memory back, and the next burst's requests wait for
 * them and then for the heap to grow again. On the leaderboard's api role, pinned to one core,
 * each cost tens of milliseconds paused plus more of marking steps and set the updates' p99 at
 * 2,000/s (the traces and figures: docs/benchmarks.md, session 19). The memory stays with the
 * process, which is what its limits on a cluster were sized for anyway.
 *
 * Node documents changing V8's flags after start-up as unpredictable: a flag may take no effect.
 * This one is read when V8 decides to schedule the reducer, after start-up; `--trace-gc` after the
 * change showed no `(reduce)` collection in any thread. Called by serve(), the process's entry.
 */
export function keepHeapBetweenBursts(): void {
  setFlagsFromString('--no-memory-reducer');
}
