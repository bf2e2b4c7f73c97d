import t from 'tap';
import { TurnAcks } from '../../bench/turn-acks.ts';

/** A commit promise settled by the test. */
function commit(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

t.test('each turn is acknowledged when its own commit is in, timed from its submissions', async (t) => {
  let now = 0;
  const acks: number[] = [];
  const turns = new TurnAcks(
    2,
    (nanos) => acks.push(nanos),
    () => now,
  );
  const first = commit();
  const second = commit();
  await turns.add(Float64Array.of(0, 1), first.promise);
  const added = turns.add(Float64Array.of(2), second.promise);
  now = 5;
  first.resolve();
  await added;
  t.same(acks, [5e6, 4e6], 'the first turn, at its commit');
  now = 9;
  second.resolve();
  await turns.drain();
  t.same(acks, [5e6, 4e6, 7e6], 'then the second, at its own');
  t.equal(turns.commits, 2);
});

t.test('turns that share the gathering batch count as one commit', async (t) => {
  const acks: number[] = [];
  const turns = new TurnAcks(
    3,
    (nanos) => acks.push(nanos),
    () => 1,
  );
  const writing = commit();
  const gathering = commit();
  writing.resolve();
  gathering.resolve();
  // Three turns waiting: the second and third joined the batch gathering behind the first.
  await turns.add(Float64Array.of(0), writing.promise);
  await turns.add(Float64Array.of(0), gathering.promise);
  await turns.add(Float64Array.of(0), gathering.promise);
  await turns.drain();
  t.equal(acks.length, 3, 'every turn acknowledged');
  t.equal(turns.commits, 2, 'two group commits, not three');
});

t.test('BENCH_INFLIGHT is a whole number of turns, 1 or more', async (t) => {
  for (const bad of [0, -1, 1.5, Number.NaN]) t.throws(() => new TurnAcks(bad, () => undefined), RangeError);
  t.doesNotThrow(() => new TurnAcks(1, () => undefined));
});
