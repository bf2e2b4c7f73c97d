import type { BlockIds } from './block-ids.ts';
import { highestDense, mergedInRankOrder } from './in-rank-order.ts';
import { RankOrder } from './rank-order.ts';
import { ScoreCounts } from './score-counts.ts';
import type { SeqColumn } from './seq-column.ts';
import type { Standing, TieBreak } from './standing.ts';
import { grown, permuted } from './typed-arrays.ts';

/**
 * The players placed in rank order, with their scores and ranks (the ranking's waiting players,
 * checkpoints and id table are the Ranking's concern).
 *
 * - `order` holds the players in rank order: score descending, then order of arrival at the
 *   score, which is the order of the win log (so a rebuild gives the same order, and the
 *   `earliest` tie-break is simply the position).
 * - `ScoreCounts` counts players per score: the shared rank is 1 + the players above, and a
 *   player's score is read off their position, so no score is stored per player.
 * - Scores at or above the dense range are kept per player in a float array (made on first use)
 *   and found by binary search over the top of the order: correct for any score, slower.
 */
export class PlacedPlayers {
  readonly order: RankOrder;
  readonly #low: ScoreCounts;
  readonly #tieBreak: TieBreak;
  /** Each placed player's seq: equal scores are ordered by it. */
  readonly #seqs: SeqColumn;
  /** Called when a placement or a removal changes the first TOP_LIST_SIZE positions. */
  readonly #topChanged: (position: number) => void;
  /** Scores of players at or above the dense range (0 for the others); undefined until needed. */
  #high: Float64Array | undefined;
  #highCount = 0;
  /** The highest seq of any player placed so far (they may have moved on since). */
  #placedSeq = -Infinity;

  constructor(
    tieBreak: TieBreak,
    seqs: SeqColumn,
    options: {
      readonly blockSize: number | undefined;
      readonly denseScores: number;
      readonly blockIds: BlockIds;
    },
    topChanged: (position: number) => void,
  ) {
    this.#tieBreak = tieBreak;
    this.#seqs = seqs;
    this.#topChanged = topChanged;
    this.order = new RankOrder(options.blockSize, undefined, options.blockIds);
    this.#low = new ScoreCounts(options.denseScores);
  }

  get size(): number {
    return this.order.size;
  }

  /** Scores from this one on are kept per player (see the class). */
  get denseLimit(): number {
    return this.#low.limit;
  }

  get byteLength(): number {
    return this.order.byteLength + this.#low.byteLength + (this.#high?.byteLength ?? 0);
  }

  /** The standing of the placed player `handle`. */
  standingOf(userId: string, handle: number): Standing {
    if (this.#tieBreak === 'shared') {
      // The rank depends on the score alone, which the player's block often gives without
      // finding the player in it (see scoreOf).
      const score = this.scoreOf(handle, -1);
      return { userId, score, rank: this.#countAbove(score) + 1 };
    }
    const position = this.order.positionOf(handle);
    const score = this.scoreOf(handle, position);
    return { userId, score, rank: this.#rank(position, score) };
  }

  /** Moves the order and the high scores with the id table's slots (see Ranking's #renumber). */
  renumber(map: Int32Array, capacity: number): void {
    this.order.renumber(map, capacity);
    if (this.#high !== undefined) this.#high = permuted(this.#high, map, capacity);
  }

  /** The rank of the player at `position` with `score`: the one place the tie-break rule is applied. */
  #rank(position: number, score: number): number {
    return this.#tieBreak === 'shared' ? this.#countAbove(score) + 1 : position + 1;
  }

  /** Calls `visit` for the players at positions offset … offset + limit - 1; stops when it returns false. */
  walk(
    offset: number,
    limit: number,
    visit: (handle: number, score: number, rank: number) => boolean | void,
  ): void {
    const end = Math.min(this.order.size, offset + limit);
    if (offset >= end) return;
    let position = offset;
    // Players of one dense score are contiguous: its score and rank are computed once per run.
    let score = -1;
    let runEnd = -1;
    let sharedRank = 0;
    const high = this.#high;
    this.order.forEachFrom(offset, (handle) => {
      if (high !== undefined && high[handle]! > 0) {
        const value = high[handle]!;
        if (visit(handle, value, this.#rank(position, value)) === false) return false;
      } else {
        if (position >= runEnd) {
          score = this.#low.scoreAt(position - this.#highCount);
          sharedRank = this.#countAbove(score) + 1;
          runEnd = sharedRank - 1 + this.#low.countOf(score);
        }
        const rank = this.#tieBreak === 'shared' ? sharedRank : position + 1;
        if (visit(handle, score, rank) === false) return false;
      }
      return ++position < end;
    });
  }

  /** Players with a score strictly above `score`. */
  #countAbove(score: number): number {
    if (score < this.#low.limit) return this.#highCount + this.#low.countAbove(score);
    return this.#highPositionBelow(score, true);
  }

  /** The score of a placed player (its position when known, or -1). */
  scoreOf(handle: number, position: number): number {
    const high = this.#high?.[handle] ?? 0;
    if (high > 0) return high;
    if (position >= 0) return this.#low.scoreAt(position - this.#highCount);
    // A block inside one score's run holds that score for every player in it, so the player need
    // not be looked for in the block (a scan of up to blockSize handles). At scale nearly every
    // block is such a block: a score is shared by far more players than a block holds.
    const first = this.order.blockStartOf(handle) - this.#highCount;
    if (first >= 0) {
      const score = this.#low.scoreAt(first);
      const runEnd = this.#low.total - this.#low.countBelow(score);
      if (first + this.order.blockSizeOf(handle) <= runEnd) return score;
    }
    return this.#low.scoreAt(this.order.positionOf(handle) - this.#highCount);
  }

  /** Removes a placed player from the order and the counts; returns their score. */
  take(handle: number): number {
    const position = this.order.remove(handle);
    this.#topChanged(position);
    const high = this.#high?.[handle] ?? 0;
    if (high > 0) {
      this.#high![handle] = 0;
      this.#highCount--;
      return high;
    }
    // The counts still hold the player, so the position still reads their score.
    const score = this.#low.scoreAt(position - this.#highCount);
    this.#low.add(score, -1);
    return score;
  }

  /**
   * Places a player with `score`, reached by the win `seq`: after everyone with a higher score,
   * and among equal scores in seq order. So the order depends on the wins, never on the order
   * they were applied in (several api processes apply a period's wins in any order).
   */
  place(handle: number, score: number, seq: number): void {
    if (score < this.#low.limit) {
      const start = this.#highCount + this.#low.countAbove(score);
      const position = this.#inSeqOrder(start, start + this.#low.countOf(score), seq);
      this.#topChanged(position);
      this.#low.add(score, 1);
      this.order.insert(position, handle);
      return;
    }
    const position = this.#inSeqOrder(
      this.#highPositionBelow(score, true),
      this.#highPositionBelow(score, false),
      seq,
    );
    this.#topChanged(position);
    this.#setHigh(handle, score);
    this.order.insert(position, handle);
  }

  /**
   * Adds `points` to a placed player's score (a win `seq`): as `take` then `place`, but when the
   * player stays in the dense range and the win is the newest placed (the common case), the order
   * moves them in one step (RankOrder.moveUp) instead of a removal and an insert.
   */
  raise(handle: number, points: number, seq: number): void {
    if (points <= 0 || !(seq > this.#placedSeq) || (this.#high?.[handle] ?? 0) > 0) {
      this.place(handle, this.take(handle) + points, seq);
      return;
    }
    const from = this.order.locate(handle);
    const score = this.#low.scoreAt(from - this.#highCount);
    const raised = score + points;
    if (raised >= this.#low.limit) {
      this.place(handle, this.take(handle) + points, seq);
      return;
    }
    this.#low.add(score, -1);
    // After everyone at the raised score: the newest win goes last among them (see #inSeqOrder).
    const to = this.#highCount + this.#low.countAbove(raised) + this.#low.countOf(raised);
    this.#placedSeq = seq;
    this.#low.add(raised, 1);
    this.#topChanged(from);
    this.#topChanged(to);
    this.order.moveUp(handle, to);
  }

  #setHigh(handle: number, score: number): void {
    this.#high = grown(this.#high ?? new Float64Array(1024), handle + 1);
    this.#high[handle] = score;
    this.#highCount++;
  }

  /**
   * Positions `from` … `to` - 1 hold players of one score in seq order: the position before the
   * first whose seq is above `seq`. Wins mostly come in log order, so the end is checked first.
   * Every placement passes here (or through placeAll), which keeps #placedSeq.
   */
  #inSeqOrder(from: number, to: number, seq: number): number {
    // Newer than every placed player's win (the common case): the end, without reading the order.
    if (seq > this.#placedSeq) {
      this.#placedSeq = seq;
      return to;
    }
    if (from === to || this.#seqs.get(this.order.at(to - 1)) < seq) return to;
    let lo = from;
    let hi = to - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#seqs.get(this.order.at(mid)) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Among the high-score players (positions 0 … highCount - 1, scores descending), the first
   * position whose score is at most `score` (`orEqual`) or below it: a binary search.
   */
  #highPositionBelow(score: number, orEqual: boolean): number {
    const high = this.#high;
    let lo = 0;
    let hi = this.#highCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const value = high![this.order.at(mid)]!;
      if (orEqual ? value > score : value >= score) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Merges players not placed yet (`pending`, in rank order; `handles`, `scores` and `seqs` in the
   * order met; `pendingScoreOf` a pending player's score) with the placed ones, and builds the
   * order and counts again in one pass: O(players) instead of one block move per player.
   */
  placeAll(
    pending: Int32Array,
    pendingScoreOf: (handle: number) => number,
    handles: Int32Array,
    scores: Float64Array,
    seqs: Float64Array,
  ): void {
    const first = this.order.size;
    const placed = new Int32Array(first);
    const placedScores = new Float64Array(first);
    let n = 0;
    this.walk(0, first, (handle, score) => {
      placed[n] = handle;
      placedScores[n++] = score;
    });
    const merged = mergedInRankOrder(
      { handles: placed, scoreOf: (_, at) => placedScores[at]! },
      { handles: pending, scoreOf: pendingScoreOf },
      (handle) => this.#seqs.get(handle),
    );
    const limit = this.#low.limit;
    const denseCounts = new Int32Array(Math.min(limit, highestDense(scores, scores.length, limit) + 1));
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      if (score < limit) denseCounts[score]!++;
      else this.#setHigh(handles[i]!, score);
      this.#placedSeq = Math.max(this.#placedSeq, seqs[i]!);
    }
    this.#low.addAll(denseCounts);
    this.order.load(merged);
    this.#topChanged(0);
  }
}
