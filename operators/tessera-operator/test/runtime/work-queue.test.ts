import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { WorkQueue } from '../../src/runtime/work-queue.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for what the queue must do; 10 s is a guard against a hang, not an expected wait. */
const eventually = (what: string, check: () => boolean) =>
  pollUntil(what, () => Promise.resolve(check()), { ms: 10_000, intervalMs: 1 });

t.test('one key is never processed twice at once; an add while it runs runs it again after', async (t) => {
  let running = 0;
  let most = 0;
  const runs: string[] = [];
  let release: () => void = () => undefined;
  const queue = new WorkQueue(
    async (key) => {
      running += 1;
      most = Math.max(most, running);
      runs.push(key);
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
      running -= 1;
      return {};
    },
    { workers: 4 },
  );
  t.teardown(() => queue.stop());
  queue.add('ns/a');
  await eventually('the first run', () => runs.length === 1);
  queue.add('ns/a');
  queue.add('ns/a'); // collapses with the one before
  // Before a check that nothing happened: under load it can let a failure pass, never fail.
  await sleep(10);
  t.equal(most, 1, 'still one run of ns/a');
  release();
  // Nothing waiting or running: no third run can come.
  await eventually('the queue to empty after the second run', () => runs.length >= 2 && queue.depth === 0);
  t.same(runs, ['ns/a', 'ns/a'], 'run once more, not twice more');
});

t.test('different keys run in parallel up to the worker count', async (t) => {
  let running = 0;
  let most = 0;
  const queue = new WorkQueue(
    async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(20);
      running -= 1;
      return {};
    },
    { workers: 2 },
  );
  t.teardown(() => queue.stop());
  for (const key of ['a', 'b', 'c', 'd']) queue.add(key);
  await eventually('all four keys run', () => queue.depth === 0);
  t.equal(most, 2);
});

t.test('a failing key is retried with growing delays; a success resets them', async (t) => {
  const times: number[] = [];
  const delays: (number | undefined)[] = [];
  const queue = new WorkQueue(
    () => {
      times.push(performance.now());
      return times.length < 4 ? Promise.reject(new Error('not yet')) : Promise.resolve({});
    },
    { backoff: { baseMs: 20, maxMs: 1_000 }, onResult: (_key, outcome) => delays.push(outcome.retryInMs) },
  );
  t.teardown(() => queue.stop());
  queue.add('k');
  await eventually('the fourth run', () => delays.length >= 4);
  t.equal(times.length, 4, 'three failures, then a success');
  t.same(delays, [20, 40, 80, undefined]);
  const gaps = times.slice(1).map((time, i) => time - times[i]!);
  t.ok(
    gaps[0]! >= 15 && gaps[1]! >= 35 && gaps[2]! >= 75,
    `gaps grow: ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`,
  );
});

t.test('a success may ask to run again later; stop cancels what is pending', async (t) => {
  const times: number[] = [];
  const queue = new WorkQueue(() => {
    times.push(performance.now());
    return Promise.resolve({ requeueAfterMs: 30 });
  });
  queue.add('k');
  await eventually('a second run', () => times.length >= 2);
  // A lower bound only: load makes the gap longer, never shorter.
  t.ok(times[1]! - times[0]! >= 25, `ran again after ${(times[1]! - times[0]!).toFixed(0)} ms, not at once`);
  await queue.stop();
  const after = times.length;
  // Before a check that nothing happened: under load it can let a failure pass, never fail.
  await sleep(80);
  t.equal(times.length, after, 'nothing runs after stop');
});
