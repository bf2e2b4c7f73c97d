import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The machine a figure was measured on, printed with every benchmark. */
export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu} · ${cpus().length} cores · Node ${process.version}`;
}

export function printTable(title: string, rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`\n${title}`);
  for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
}

/** Writes a benchmark's figures to bench-results/<name>.json at the repository root. */
export function saveResults(name: string, results: unknown): void {
  const dir = join(ROOT, 'bench-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: bench-results/${name}.json`);
}

export function perSecond(count: number, ms: number): string {
  return `${Math.round((count / ms) * 1000).toLocaleString('en-US')}/s`;
}

export function progress(label: string, done: number, total: number): void {
  if (process.stderr.isTTY) process.stderr.write(`\r  ${label}: ${Math.round((done / total) * 100)}%   `);
  else if (done === total || done % Math.ceil(total / 10) === 0)
    console.error(`  ${label}: ${done}/${total}`);
}
