/**
 * The reference engine of the field beside ours (issue #12): a journal of the engine benchmark
 * written to a file and replayed by exchange-core's order book in a JVM (bench/exchange-core/,
 * built by tools/exchange-core-bench.sh with Maven into ~/.cache/tessera). Same events, same
 * run count, measured the same way: throughput runs on a fresh book after a warm-up, then a
 * latency pass timing each event on its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MSG_NEW, SIDE_BUY } from '../src/core/codes.ts';
import type { Journal } from './stream.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ExchangeCoreResult {
  readonly events: number;
  /** Ops/s of each measured run. */
  readonly runs: readonly number[];
  readonly latencyNs: {
    readonly p50: number;
    readonly p99: number;
    readonly p999: number;
    readonly p9999: number;
    readonly max: number;
  };
}

/** The driver's classpath directory; builds it the first time (Maven, javac). */
export function buildExchangeCore(): string {
  return execFileSync('bash', [join(ROOT, 'tools/exchange-core-bench.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/** The journal as the driver reads it: int32 count, then u8 type, u8 side, int64 id, price, qty. */
export function journalBytes(journal: Journal): Uint8Array {
  const record = 2 + 8 * 3;
  const bytes = new Uint8Array(4 + journal.length * record);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, journal.length, true);
  for (let i = 0; i < journal.length; i++) {
    const at = 4 + i * record;
    view.setUint8(at, journal.type[i] === MSG_NEW ? 1 : 2);
    view.setUint8(at + 1, journal.side[i] === SIDE_BUY ? 0 : 1);
    view.setBigInt64(at + 2, BigInt(journal.orderId[i]!), true);
    view.setBigInt64(at + 10, BigInt(journal.price[i]!), true);
    view.setBigInt64(at + 18, BigInt(journal.quantity[i]!), true);
  }
  return bytes;
}

export function runExchangeCore(classpath: string, journal: Journal, runs: number): ExchangeCoreResult {
  const dir = mkdtempSync(join(tmpdir(), 'exchange-core-'));
  try {
    const file = join(dir, 'journal.bin');
    writeFileSync(file, journalBytes(journal));
    const out = execFileSync(
      'java',
      [
        '-Xms1g',
        '-Xmx2g',
        '-cp',
        `${classpath}/classes:${classpath}/lib/*`,
        'ExchangeCoreBench',
        file,
        String(runs),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
    );
    return JSON.parse(out.trim().split('\n').at(-1)!) as ExchangeCoreResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
