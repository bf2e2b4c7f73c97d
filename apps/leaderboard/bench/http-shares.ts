/**
 * The share of bare node:http a kind of request reaches in bench/http.ts, taken round by round
 * (each round's figures share the machine's state: the measures run back to back) and then
 * summed up as the median and the spread of the rounds, so that one run says how far its own
 * ratio can be trusted. Two shares: requests/s over bare's requests/s, and bare's CPU time a
 * request over ours (what the throughput ratio would be on a core of its own).
 */
import { median, type Figures } from '@tessera/testkit';

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Each round's value, in round order. */
  readonly rounds: readonly number[];
}

export interface Shares {
  /** requests/s over bare node:http's in the same round. */
  readonly rate: Spread;
  /** bare node:http's CPU a request over this kind's in the same round. */
  readonly cpu: Spread;
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error('no rounds');
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), rounds: values };
}

/** The shares of `runs` against `baseline`, round i against round i. */
export function sharesOf(runs: readonly Figures[], baseline: readonly Figures[]): Shares {
  if (runs.length !== baseline.length) throw new Error(`${runs.length} rounds against ${baseline.length}`);
  const rate = runs.map((f, i) => f.requestsPerSecond / baseline[i]!.requestsPerSecond);
  const cpu = runs.map((f, i) => baseline[i]!.cpuMicros / f.cpuMicros);
  return { rate: spreadOf(rate), cpu: spreadOf(cpu) };
}

/** `0.62 (0.55–0.70) of bare node:http, CPU 0.60 (0.52–0.66)`: the medians and their spread. */
export function sharesText(shares: Shares, of = 'bare node:http'): string {
  const text = (s: Spread) => `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
  return `${text(shares.rate)} of ${of}, CPU ${text(shares.cpu)}`;
}
