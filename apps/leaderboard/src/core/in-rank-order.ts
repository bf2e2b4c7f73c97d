/**
 * Players placed together (a replay, a restore), put in rank order without comparing pairs: they
 * come in seq order (a radix sort), and a stable counting sort by score finishes the order, since
 * scores are small integers. Scores at or past the dense limit (rare) are sorted apart and go
 * first.
 */

/**
 * The handles `handles[i]` in rank order: score descending, then seq ascending. `bySeq` lists
 * the indices i in seq order; `scores[i]` is player i's score.
 */
export function inRankOrder(
  bySeq: Uint32Array,
  scores: Float64Array,
  denseLimit: number,
  handles: Int32Array,
): Int32Array {
  let topScore = 0;
  const high: number[] = [];
  for (const i of bySeq) {
    const score = scores[i]!;
    if (score >= denseLimit) high.push(i);
    else if (score > topScore) topScore = score;
  }
  const starts = new Int32Array(topScore + 1);
  for (const i of bySeq) if (scores[i]! < denseLimit) starts[scores[i]!]!++;
  // Each score's run starts after the high scores and every higher dense score.
  let next = high.length;
  for (let score = topScore; score >= 0; score--) {
    const players = starts[score]!;
    starts[score] = next;
    next += players;
  }
  const ordered = new Int32Array(bySeq.length);
  high.sort((a, b) => scores[b]! - scores[a]!); // stable: equal scores keep seq order
  high.forEach((i, at) => (ordered[at] = handles[i]!));
  for (const i of bySeq) if (scores[i]! < denseLimit) ordered[starts[scores[i]!]!++] = handles[i]!;
  return ordered;
}

/** Handles in rank order, and the score of each (by handle, or by its index in `handles`). */
export interface RankedRun {
  readonly handles: Int32Array;
  readonly scoreOf: (handle: number, at: number) => number;
}

/**
 * Two runs in rank order merged into one: score descending, then seq ascending (`seqOf`); on a
 * tie of both (never, seqs are unique), the first run's player goes first.
 */
export function mergedInRankOrder(a: RankedRun, b: RankedRun, seqOf: (handle: number) => number): Int32Array {
  const merged = new Int32Array(a.handles.length + b.handles.length);
  let i = 0;
  let j = 0;
  for (let out = 0; out < merged.length; out++) {
    let fromA = j === b.handles.length;
    if (!fromA && i < a.handles.length) {
      const scoreA = a.scoreOf(a.handles[i]!, i);
      const scoreB = b.scoreOf(b.handles[j]!, j);
      fromA = scoreA > scoreB || (scoreA === scoreB && seqOf(a.handles[i]!) <= seqOf(b.handles[j]!));
    }
    merged[out] = fromA ? a.handles[i++]! : b.handles[j++]!;
  }
  return merged;
}

/** The highest score below `limit` among the first `count` of `scores` (0 when none). */
export function highestDense(scores: Float64Array, count: number, limit: number): number {
  let top = 0;
  for (let i = 0; i < count; i++) if (scores[i]! < limit && scores[i]! > top) top = scores[i]!;
  return top;
}
