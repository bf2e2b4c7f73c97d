// The core benchmark's rates: medians over rounds, per second of wall-clock and of CPU time.

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface Rate {
  /** Median over the rounds, per second of wall-clock time. */
  readonly rate: number;
  readonly min: number;
  readonly max: number;
  /** Median over the rounds, per second of this process's CPU time (less sensitive to a busy machine). */
  readonly cpuRate: number;
}

/** Runs `body` `rounds` times; returns the median rates and the spread. */
export function measure(rounds: number, count: number, body: () => void): Rate {
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    body();
    const used = process.cpuUsage(cpu);
    rates.push((count / (performance.now() - start)) * 1000);
    cpuRates.push((count / (used.user + used.system)) * 1e6);
  }
  return { rate: median(rates), min: Math.min(...rates), max: Math.max(...rates), cpuRate: median(cpuRates) };
}

export function rate(m: Rate): string {
  const f = (n: number): string => Math.round(n).toLocaleString('en-US');
  return `${f(m.rate)}/s (runs ${f(m.min)}–${f(m.max)}; ${f(m.cpuRate)}/s of CPU time)`;
}
