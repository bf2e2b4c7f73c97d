/**
 * The durable side of a score update, in process and per thread: the win log
 * (`GroupCommitWinLog`: commits on the main thread, fdatasync on libuv's pool, counted in `other`;
 * WAL copied back by the kit's checkpointer thread, `wal`)
 * and a ranking checkpoint (`CheckpointWriter`: upserts on its own thread) of the players the
 * wins changed. BENCH_CLIENTS appenders (default 32) each append a win for a random player, apply
 * it to a ranking once it resolved, and append the next (so batches of about BENCH_CLIENTS form,
 * as under HTTP load); after BENCH_WINS wins (default 40,000; BENCH_WARMUP before, not counted)
 * the changed players are checkpointed. CPU per thread comes from /proc/self/task/<tid>/schedstat,
 * threads told apart by when they were started. Prints one JSON line (µs of CPU a win per thread,
 * and the checkpoint's µs an entry); run it several times, old and new code interleaved.
 * DATA_FSYNC=false commits with synchronous = NORMAL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { seededRandom } from '@tessera/testkit';
import { CheckpointWriter } from '../src/adapters/embedded/checkpoint-writer.ts';
import { GroupCommitWinLog } from '../src/adapters/embedded/group-commit-win-log.ts';
import { Ranking } from '../src/core/ranking.ts';
import { threadCpuUs, threadIds } from './process-cpu.ts';

const WINS = Number(process.env.BENCH_WINS ?? 40_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 100_000);
const SYNCHRONOUS = process.env.DATA_FSYNC === 'false' ? 'normal' : 'full';
/** GroupCommitWinLog's holdMicros (default 0). */
const HOLD_US = Number(process.env.BENCH_HOLD_US ?? 0);
const PERIOD = '2026-11';

function tids(): Set<number> {
  return new Set(threadIds('self'));
}

/** The threads started by `start`, in the order the kernel numbered them. */
function threadsOf<T>(start: () => T): { value: T; threads: number[] } {
  const before = tids();
  const value = start();
  return { value, threads: [...tids()].filter((tid) => !before.has(tid)).sort((a, b) => a - b) };
}

const cpuUs = (tid: number): number => threadCpuUs('self', tid);

const dir = mkdtempSync(join(tmpdir(), 'lb-update-path-'));
try {
  const reader = openSqlite(join(dir, 'wins.db'));
  // GroupCommitWinLog starts one thread: the WAL checkpointer.
  const options = { file: join(dir, 'wins.db'), synchronous: SYNCHRONOUS, reader } as const;
  const log = threadsOf(() => new GroupCommitWinLog({ ...options, holdMicros: HOLD_US }));
  const checkpoints = threadsOf(() => new CheckpointWriter(join(dir, 'ranking.db'), 'normal'));
  const [walTid] = log.threads;
  const [checkpointTid] = checkpoints.threads;
  if (walTid === undefined || checkpointTid === undefined) {
    throw new Error(
      `threads not found: ${JSON.stringify({ log: log.threads, checkpoints: checkpoints.threads })}`,
    );
  }
  const mainTid = process.pid;
  const ranking = new Ranking('shared');
  const random = seededRandom(7);

  const appendAll = async (count: number): Promise<void> => {
    let left = count;
    const client = async (): Promise<void> => {
      while (left-- > 0) {
        const userId = `player-${random(PLAYERS)}`;
        const { win } = await log.value.append({ period: PERIOD, userId, points: 1, at: Date.now() });
        ranking.apply(win.seq, win.userId, win.points);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
  };

  await appendAll(WARMUP);
  await checkpoints.value.save(PERIOD, ranking);
  const threads = { main: mainTid, wal: walTid, checkpoint: checkpointTid };
  const named = new Set<number>(Object.values(threads));
  // The rest: V8's helper threads (garbage collection, compilation) and libuv's pool.
  const others = (): number =>
    [...tids()].filter((tid) => !named.has(tid)).reduce((sum, tid) => sum + cpuUs(tid), 0);
  const at = (): Record<string, number> => ({
    ...Object.fromEntries(Object.entries(threads).map(([name, tid]) => [name, cpuUs(tid)])),
    other: others(),
  });
  const start = at();
  await appendAll(WINS);
  const afterWins = at();
  const entries = await checkpoints.value.save(PERIOD, ranking);
  const end = at();
  const perWin = (name: string): number => Number(((end[name]! - start[name]!) / WINS).toFixed(2));
  console.log(
    JSON.stringify({
      holdMicros: HOLD_US,
      wins: WINS,
      entries,
      mainPerWin: perWin('main'),
      walPerWin: perWin('wal'),
      checkpointPerWin: perWin('checkpoint'),
      otherPerWin: perWin('other'),
      totalPerWin: Number(
        ['main', 'wal', 'checkpoint', 'other'].reduce((sum, name) => sum + perWin(name), 0).toFixed(2),
      ),
      checkpointPerEntry: Number(((end['checkpoint']! - afterWins['checkpoint']!) / entries).toFixed(2)),
      mainCheckpointPerEntry: Number(((end['main']! - afterWins['main']!) / entries).toFixed(2)),
    }),
  );
  await checkpoints.value.close();
  await log.value.close();
  reader.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
