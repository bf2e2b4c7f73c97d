/**
 * Restart time from the journal (issue #12): a request stream journaled once, with a snapshot
 * every `snapshotEvery` commands, then the service opened again from the latest snapshot and the
 * journal after it, and once more with the snapshots removed (a replay of the whole journal). Each
 * opening must rebuild the very state the writer had (the digest). Shared by pipeline.ts (its
 * requests) and restart.ts (millions of them, streamed: never all in memory).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import type { ExchangeRules } from '../src/core/order-manager.ts';
import { ExchangeService } from '../src/service.ts';
import { fund, send, type FlowOptions, type Request } from './order-flow.ts';

export interface RestartOptions {
  readonly rules: ExchangeRules;
  readonly flow: FlowOptions;
  /** How many requests, and the next one each call (a stream: they are not kept). */
  readonly requests: number;
  readonly next: () => Request;
  readonly batch: number;
  readonly snapshotEvery: number;
  /** Openings timed from the snapshot (the median is reported). */
  readonly runs: number;
  /** Openings timed replaying the whole journal (0: not measured). */
  readonly fullReplayRuns: number;
  /** Called every `batch` requests while the journal is written (a progress line). */
  readonly progress?: (written: number) => void;
}

export interface Timing {
  readonly wall: number;
  readonly cpu: number;
  /** Heap and external memory after the opening, in bytes (what the rebuilt state holds). */
  readonly memory: number;
}

export interface RestartTimes {
  readonly commands: number;
  readonly lastSnapshot: number;
  readonly snapshotBytes: number;
  readonly journalBytes: number;
  readonly writeSeconds: number;
  /** Snapshots the writer could not take (the seq of each): a state too large to serialise. */
  readonly failedSnapshots: readonly number[];
  readonly withSnapshot: Timing;
  readonly fullReplay: Timing | undefined;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function restartTimes(options: RestartOptions): Promise<RestartTimes> {
  const dir = mkdtempSync(join(tmpdir(), 'ex-restart-'));
  try {
    const file = join(dir, 'exchange.db');
    const failedSnapshots: number[] = [];
    const open = (snapshotEvery = Number.MAX_SAFE_INTEGER) =>
      ExchangeService.open({
        rules: options.rules,
        journal: new SqliteJournal(openSqlite(file, { synchronous: 'normal' })),
        snapshotEvery,
        onSnapshotFailed: (seq) => failedSnapshots.push(seq),
      });
    const started = performance.now();
    const writer = open(options.snapshotEvery);
    await fund(writer, options.flow);
    for (let i = 0; i < options.requests; i += options.batch) {
      const end = Math.min(i + options.batch, options.requests);
      for (let j = i; j < end; j++) send(writer, options.next());
      await writer.durable();
      options.progress?.(end);
    }
    const commands = writer.seq;
    const digest = writer.digest();
    await writer.close();
    const writeSeconds = (performance.now() - started) / 1000;

    const time = async (): Promise<Timing> => {
      const start = performance.now();
      const cpu = process.cpuUsage();
      const service = open();
      const used = process.cpuUsage(cpu);
      const wall = performance.now() - start;
      if (service.digest() !== digest) throw new Error('the restarted state differs');
      const { heapUsed, external } = process.memoryUsage();
      await service.close();
      return { wall, cpu: (used.user + used.system) / 1000, memory: heapUsed + external };
    };
    const timings = async (runs: number): Promise<Timing> => {
      const all: Timing[] = [];
      for (let i = 0; i < runs; i++) all.push(await time());
      return {
        wall: median(all.map((r) => r.wall)),
        cpu: median(all.map((r) => r.cpu)),
        memory: median(all.map((r) => r.memory)),
      };
    };
    const withSnapshot = await timings(options.runs);
    const db = openSqlite(file);
    const snapshot = db
      .prepare(
        'SELECT SUM(LENGTH(body)) AS bytes, seq FROM snapshot_parts WHERE seq = (SELECT MAX(seq) FROM snapshot_parts)',
      )
      .get() as {
      bytes: number | null;
      seq: number | null;
    };
    db.exec('DELETE FROM snapshot_parts');
    db.close();
    const journalBytes = statSync(file).size;
    const fullReplay = options.fullReplayRuns > 0 ? await timings(options.fullReplayRuns) : undefined;
    return {
      commands,
      lastSnapshot: snapshot.seq ?? 0,
      snapshotBytes: snapshot.bytes ?? 0,
      journalBytes,
      writeSeconds,
      failedSnapshots,
      withSnapshot,
      fullReplay,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
