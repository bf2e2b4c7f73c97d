/** Latency summaries and progress lines of the search benchmark. */

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}
const ms = (value: number): number => Math.round(value * 100) / 100;
export interface Summary {
  readonly count: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
}

export const summary = (values: readonly number[]): Summary => ({
  count: values.length,
  p50_ms: ms(quantile(values, 0.5)),
  p95_ms: ms(quantile(values, 0.95)),
  p99_ms: ms(quantile(values, 0.99)),
  max_ms: ms(quantile(values, 1)),
});

export function progress(label: string, done: number, total: number, started: number): void {
  const rate = Math.round(done / ((performance.now() - started) / 1000));
  console.error(
    `  ${label}: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${rate.toLocaleString('en-US')}/s)`,
  );
}
