import { inRankOrder } from './in-rank-order.ts';
import type { PlacedPlayers } from './placed-players.ts';
import { MERGE_SHARE } from './ranking-options.ts';
import type { SeqColumn } from './seq-column.ts';
import { sortedBySeq } from './sorted-by-seq.ts';

/**
 * Places the players met or restored since the last read (`handles` and `scores`, in the order
 * met; each waiting player's `blockOf` entry holds the index of their pair). A few are placed one
 * by one, in seq order, so that equal scores keep the order of the log. Many (a rebuild, a
 * restore, a long replay) are sorted into rank order and merged with the placed players, and the
 * order and the counts are built again in one pass: O(players) instead of one block move per
 * player. Returns whether they were merged (which ends a replay or a restore).
 */
export function placeWaiting(
  placed: PlacedPlayers,
  seqColumn: SeqColumn,
  handles: Int32Array,
  scores: Float64Array,
  bulkPlacement: number,
): boolean {
  const count = handles.length;
  const order = placed.order;
  if (count === 1) {
    placed.place(handles[0]!, scores[0]!, seqColumn.get(handles[0]!));
    order.unpark();
    return false;
  }
  const seqs = new Float64Array(count);
  for (let i = 0; i < count; i++) seqs[i] = seqColumn.get(handles[i]!);
  const bySeq = sortedBySeq(seqs);
  // A merge costs a pass over every placed player: worth it for a replay's many, not for a few
  // thousand met while millions are placed (each placement alone is a few microseconds).
  if (count < bulkPlacement || count * MERGE_SHARE < placed.size) {
    for (const i of bySeq) placed.place(handles[i]!, scores[i]!, seqs[i]!);
    order.unpark();
    return false;
  }
  // Until the order is loaded again, a waiting player's blockOf entry says where their score is.
  const pending = inRankOrder(bySeq, scores, placed.denseLimit, handles);
  placed.placeAll(pending, (handle) => scores[order.parked(handle)]!, handles, scores, seqs);
  return true;
}
