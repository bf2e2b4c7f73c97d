import type { Figures } from '@tessera/testkit';
import t from 'tap';
import { sharesOf, sharesText, spreadOf } from '../../bench/http-shares.ts';

const figures = (requestsPerSecond: number, cpuMicros: number): Figures => ({
  requests: requestsPerSecond * 5,
  requestsPerSecond,
  cpuMicros,
  p50: 1,
  p90: 1,
  p99: 1,
  p999: 1,
  max: 1,
  errors: 0,
});

t.test('each round against the baseline of its own round, then the median and the spread', (t) => {
  // Round 2's machine was slower for both: its ratio is round 3's, not a drop.
  const updates = [figures(30_000, 30), figures(15_000, 40), figures(36_000, 25)];
  const bare = [figures(60_000, 15), figures(25_000, 20), figures(60_000, 16)];
  const shares = sharesOf(updates, bare);
  t.same(shares.rate.rounds, [0.5, 0.6, 0.6]);
  t.same(shares.rate, { median: 0.6, min: 0.5, max: 0.6, rounds: [0.5, 0.6, 0.6] });
  t.same(shares.cpu.rounds, [0.5, 0.5, 0.64]);
  t.equal(shares.cpu.median, 0.5);
  t.equal(sharesText(shares), '0.60 (0.50–0.60) of bare node:http, CPU 0.50 (0.50–0.64)');
  t.end();
});

t.test('an even count of rounds: the median of the middle two; mismatched or no rounds throw', (t) => {
  t.same(spreadOf([0.25, 1, 0.5, 0.75]), { median: 0.625, min: 0.25, max: 1, rounds: [0.25, 1, 0.5, 0.75] });
  t.throws(() => sharesOf([figures(1, 1)], []), /1 rounds against 0/);
  t.throws(() => spreadOf([]), /no rounds/);
  t.end();
});
