/**
 * The replay's reading thread: reads a period's wins from its own read-only connection to
 * wins.db, a batch ahead of the caller, and posts each batch as columns (the user ids joined by
 * newlines, which no id may contain). Started per replay by `ThreadedWinLogReads`.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { WinColumnsBatch, WinReadRequest } from './threaded-win-log-reads.ts';
import { REPLAY_QUERY, type ReplayRow } from './win-batch-writer.ts';

const { file, period, afterSeq, batchSize } = workerData as WinReadRequest;
const db = new DatabaseSync(file, { readOnly: true });
const query = db.prepare(REPLAY_QUERY);
query.setReturnArrays(true);
let from = afterSeq;

/** Each message asks for the next batch; an empty batch means the end. */
parentPort?.on('message', () => {
  const rows = query.all(period, from, batchSize) as unknown as ReplayRow[];
  const count = rows.length;
  const batch: WinColumnsBatch = {
    seqs: new Float64Array(count),
    points: new Float64Array(count),
    ats: new Float64Array(count),
    userIds: '',
    matchIds: [],
  };
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const [seq, userId, points, matchId, at] = rows[i]!;
    batch.seqs[i] = seq;
    batch.points[i] = points;
    batch.ats[i] = at;
    ids[i] = userId;
    if (matchId !== null) batch.matchIds.push([i, matchId]);
  }
  batch.userIds = ids.join('\n');
  if (count > 0) from = batch.seqs[count - 1]!;
  parentPort?.postMessage(batch, [batch.seqs.buffer, batch.points.buffer, batch.ats.buffer]);
});
