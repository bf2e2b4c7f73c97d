import { highestDense, inRankOrder, mergedInRankOrder } from './in-rank-order.ts';
import { RankOrder } from './rank-order.ts';
import { ScoreCounts } from './score-counts.ts';
import { ChangedSet } from './changed-set.ts';
import { SeqColumn } from './seq-column.ts';
import { sortedBySeq } from './sorted-by-seq.ts';
import { type Standing, type TieBreak, TOP_LIST_SIZE } from './standing.ts';
import { grown, permuted } from './typed-arrays.ts';
import { MAX_PLAYERS, TABLE_GROWTH, UserIdTable } from './user-id-table.ts';
import { WaitingScores } from './waiting-scores.ts';

/** One player's saved state: enough to restore the ranking without the win log. */
export interface RankingEntry {
  readonly userId: string;
  readonly score: number;
  /** Sequence of the win that brought the player to this score (the tie-break). */
  readonly seq: number;
}

/**
 * The players a checkpoint save took from the ranking (`Ranking.takeChanges`). The ranking holds
 * the list until the save calls `end`, so that a renumbering of the players while the save yields
 * between chunks (a growth of a table keyed by slot, issue #15) renumbers the list with them.
 */
export interface TakenChanges {
  readonly length: number;
  /** The current saved form of the `index`-th player taken. */
  entryAt(index: number): RankingEntry;
  /** Ends the save: unless it was `saved`, the players count as changed again for the next one. */
  end(saved: boolean): void;
}

export interface RankingOptions {
  /** Scores below this (a power of two) are counted in a dense Fenwick tree; higher ones take a slower path. */
  readonly denseScores?: number;
  /** Players per block of the rank order. */
  readonly blockSize?: number;
  /** From this many players placed at once, they are merged in bulk (a test sets it low). */
  readonly bulkPlacement?: number;
  /**
   * A test hook: every this many new players, the id table is rehashed into one slot more or
   * fewer, which gives most players a new handle as a growth does. Unset outside tests.
   */
  readonly renumberEvery?: number;
}

/** 2^20: a month of 1-point wins never leaves the dense range; its tree grows with the top score. */
const DENSE_SCORES = 1 << 20;

/**
 * One month's ranking: every player's score and rank, updated win by win.
 *
 * - `RankOrder` holds the players in rank order: score descending, then order of arrival at the
 *   score, which is the order of the win log (so a rebuild gives the same order, and the
 *   `earliest` tie-break is simply the position).
 * - `ScoreCounts` counts players per score: the shared rank is 1 + the players above, and a
 *   player's score is read off their position, so no score is stored per player.
 * - Scores at or above `denseScores` are kept per player in a float array (made on first use)
 *   and found by binary search over the top of the order: correct for any score, slower.
 *
 * Wins are applied in the order of the win log. `seq` is the win's position in that log, and each
 * player keeps the seq of the last win counted in their score: a win at or below it is a
 * redelivery and changes nothing. So replaying the log over a restored ranking is always safe,
 * even when the saved entries are newer than the seq the save claims to cover.
 */
export class Ranking {
  readonly tieBreak: TieBreak;
  /** Handles are the ids' slots: a rehash moves every column with them (see #renumber). */
  readonly #ids = new UserIdTable((map, capacity) => this.#renumber(map, capacity));
  readonly #order: RankOrder;
  readonly #low: ScoreCounts;
  /** Scores of players at or above the dense range (0 for the others); undefined until needed. */
  #high: Float64Array | undefined;
  #highCount = 0;
  readonly #seqs = new SeqColumn();
  readonly #changed = new ChangedSet();
  /** Players not yet placed in the order (restored or new) and their scores; see #wait. */
  readonly #waiting = new WaitingScores();
  #appliedSeq = 0;
  /** The highest seq of any player placed in the order so far (they may have moved on since). */
  #placedSeq = -Infinity;
  /** Whether capacity beyond a running growth's was made (a replay's growth, a reserve) since the last trim. */
  #oversized = false;
  readonly #bulkPlacement: number;
  /** The handle lists of the checkpoint saves in flight: renumbered with the players. */
  readonly #taken = new Set<Int32Array>();
  readonly #renumberEvery: number;
  #metSinceRenumber = 0;
  /**
   * The top list, kept until a win moves a player into or out of it: the hottest read, and at
   * scale almost no win changes it. (A player placed below it cannot change its ranks either:
   * their score is at most the last listed one.)
   */
  #topList: Standing[] | undefined;

  constructor(tieBreak: TieBreak, options: RankingOptions = {}) {
    this.tieBreak = tieBreak;
    this.#order = new RankOrder(options.blockSize);
    this.#low = new ScoreCounts(options.denseScores ?? DENSE_SCORES);
    this.#bulkPlacement = options.bulkPlacement ?? BULK_PLACEMENT;
    this.#renumberEvery = options.renumberEvery ?? 0;
  }

  /** Number of players with a score. */
  get size(): number {
    return this.#ids.size;
  }

  /** Highest seq applied (or covered by the restored state). */
  get appliedSeq(): number {
    return this.#appliedSeq;
  }

  /** Bytes held by the ranking's typed arrays (capacity). */
  get byteLength(): number {
    return (
      this.#ids.byteLength +
      this.#order.byteLength +
      this.#low.byteLength +
      (this.#high?.byteLength ?? 0) +
      this.#waiting.byteLength +
      this.#seqs.byteLength +
      this.#changed.byteLength
    );
  }

  /**
   * Makes room for `players` players in all, so that a rebuild or a restore up to that many
   * neither grows the id table (each growth rewrites every slot at random) nor copies a column.
   * Optional: a hint from a caller that knows the count (a checkpoint) or estimates it (the win
   * log's sketch of its players). A wrong hint costs time, never a result: too small, the table
   * grows as without one; too large, the next bulk placement trims what is unused.
   */
  reserve(hint: number): void {
    // A bad hint (NaN, negative, past what a table holds) must not cost an allocation.
    const players = Math.min(Number.isFinite(hint) ? Math.max(0, Math.floor(hint)) : 0, MAX_PLAYERS);
    if (players <= this.#ids.size) return;
    this.#oversized = true;
    this.#ids.reserve(players);
    const capacity = this.#ids.capacity;
    this.#seqs.reserve(capacity);
    this.#changed.reserve(capacity);
    this.#order.reserve(capacity);
    this.#waiting.reserve(players - this.#order.size);
  }

  /**
   * Adds `points` to the player's score (a new player starts at 0). Returns false for a redelivered
   * win. A player met for the first time is placed in the order at the next read, together with
   * every other player met since: a replay of the log places millions at once (see #placePending).
   */
  apply(seq: number, userId: string, points: number): boolean {
    const known = this.#ids.size;
    const growth = this.#growth(this.#order.size, known);
    const handle = this.#ids.intern(userId, growth);
    const met = this.#ids.size > known;
    if (met) {
      this.#wait(handle, points, growth);
    } else {
      if (seq <= this.#seqs.get(handle)) return false;
      const at = this.#waitingAt(handle);
      if (at < 0) this.#place(handle, this.#take(handle) + points, seq);
      else this.#waiting.addPoints(at, points);
    }
    this.#seqs.set(handle, seq, growth);
    this.#changed.add(handle, growth);
    if (seq > this.#appliedSeq) this.#appliedSeq = seq;
    if (met && this.#renumberEvery > 0 && ++this.#metSinceRenumber === this.#renumberEvery) {
      this.#metSinceRenumber = 0;
      this.#ids.moveForTest();
    }
    return true;
  }

  /**
   * Where a known player's pair is among the waiting ones, or -1 when they are placed. A waiting
   * player's `blockOf` entry holds the index of their pair (see #wait); a placed player's holds
   * a block id, which may be a valid index too, but of a pair that is not theirs.
   */
  #waitingAt(handle: number): number {
    const at = this.#order.parked(handle);
    return at < this.#waiting.count && this.#waiting.handleAt(at) === handle ? at : -1;
  }

  /**
   * Puts back a saved entry; the caller then sets the seq the saved state was taken at. Restored
   * players are placed together, in seq order, before the next read or win.
   */
  restore(entry: RankingEntry): void {
    const known = this.#ids.size;
    const growth = this.#growth(this.#order.size, known);
    const handle = this.#ids.intern(entry.userId, growth);
    if (this.#ids.size > known) {
      this.#wait(handle, entry.score, growth);
    } else {
      const at = this.#waitingAt(handle);
      if (at >= 0) this.#waiting.setScore(at, entry.score);
      else {
        this.#take(handle);
        this.#place(handle, entry.score, entry.seq);
      }
    }
    this.#seqs.set(handle, entry.seq, growth);
  }

  /** Marks the ranking as holding every win up to `seq` (after a restore). */
  restoredUpTo(seq: number): void {
    this.#placePending();
    this.#appliedSeq = Math.max(this.#appliedSeq, seq);
  }

  standing(userId: string): Standing | undefined {
    this.#placePending();
    const handle = this.#ids.handleOf(userId);
    if (handle < 0) return undefined;
    if (this.tieBreak === 'shared') {
      // The rank depends on the score alone, which the player's block often gives without
      // finding the player in it (see #scoreOf).
      const score = this.#scoreOf(handle, -1);
      return { userId, score, rank: this.#countAbove(score) + 1 };
    }
    const position = this.#order.positionOf(handle);
    const score = this.#scoreOf(handle, position);
    return { userId, score, rank: this.#rank(position, score) };
  }

  /** Up to `limit` players from position `offset` (0-based), best first. */
  top(offset: number, limit: number): Standing[] {
    this.#placePending();
    if (offset === 0 && limit <= TOP_LIST_SIZE) {
      this.#topList ??= this.#walked(0, TOP_LIST_SIZE);
      return this.#topList.slice(0, limit);
    }
    return this.#walked(offset, limit);
  }

  #walked(offset: number, limit: number): Standing[] {
    const standings: Standing[] = [];
    this.#walk(offset, limit, (handle, score, rank) => {
      standings.push({ userId: this.#ids.idOf(handle), score, rank });
    });
    return standings;
  }

  /** The player with up to `n` players above and `n` below, in rank order; undefined for an unknown player. */
  around(userId: string, n: number): Standing[] | undefined {
    this.#placePending();
    const handle = this.#ids.handleOf(userId);
    if (handle < 0) return undefined;
    const position = this.#order.positionOf(handle);
    const from = Math.max(0, position - n);
    return this.top(from, position + n + 1 - from);
  }

  /** Every player in rank order, with rank; stops early when `visit` returns false. */
  forEachStanding(visit: (standing: Standing, seq: number) => boolean | void): void {
    this.#placePending();
    this.#walk(0, this.size, (handle, score, rank) =>
      visit({ userId: this.#ids.idOf(handle), score, rank }, this.#seqs.get(handle)),
    );
  }

  /**
   * Takes the players changed since the last call; the set starts empty again. A checkpoint save
   * writes them and then ends the list (which gives them back if the save failed).
   */
  takeChanges(): TakenChanges {
    const handles = this.#changed.take();
    this.#taken.add(handles);
    return {
      length: handles.length,
      // Read through the list at each call: a renumbering rewrites it in place.
      entryAt: (index) => this.#entryOf(handles[index]!),
      end: (saved) => {
        if (!this.#taken.delete(handles) || saved) return;
        for (const handle of handles) this.#changed.add(handle);
      },
    };
  }

  #entryOf(handle: number): RankingEntry {
    // A player not placed yet keeps their score apart: a checkpoint during a long replay reads it
    // there instead of placing everyone met so far.
    const at = this.#waitingAt(handle);
    return {
      userId: this.#ids.idOf(handle),
      score: at < 0 ? this.#scoreOf(handle, -1) : this.#waiting.scoreAt(at),
      seq: this.#seqs.get(handle),
    };
  }

  /**
   * The id table moved every player to `map[handle]` (-1: no player there) in `capacity` slots: the
   * columns, the order, the high scores, the waiting pairs and the saves' lists follow. Every
   * column keyed by handle is made `capacity` long, so no later write past it grows one.
   */
  #renumber(map: Int32Array, capacity: number): void {
    this.#seqs.renumber(map, capacity);
    this.#changed.renumber(map, capacity);
    this.#order.renumber(map, capacity);
    if (this.#high !== undefined) this.#high = permuted(this.#high, map, capacity);
    this.#waiting.renumber(map);
    for (let at = 0; at < this.#waiting.count; at++) this.#order.park(this.#waiting.handleAt(at), at);
    for (const handles of this.#taken)
      for (let i = 0; i < handles.length; i++) handles[i] = map[handles[i]!]!;
  }

  /**
   * How much the id table and the columns grow when full: by BULK_GROWTH while the players waiting
   * to be placed are at least as many as those placed (a replay or a restore, which ends in a bulk
   * placement that trims them), else by TABLE_GROWTH, which keeps the unused capacity small: the
   * columns keyed by handle are as long as the table (see #renumber), so its load is theirs.
   */
  #growth(placed: number, known: number): number {
    if (known - placed < placed) return TABLE_GROWTH;
    this.#oversized = true;
    return BULK_GROWTH;
  }

  /** The rank of the player at `position` with `score`: the one place the tie-break rule is applied. */
  #rank(position: number, score: number): number {
    return this.tieBreak === 'shared' ? this.#countAbove(score) + 1 : position + 1;
  }

  /** Calls `visit` for the players at positions offset … offset + limit - 1; stops when it returns false. */
  #walk(
    offset: number,
    limit: number,
    visit: (handle: number, score: number, rank: number) => boolean | void,
  ): void {
    const end = Math.min(this.#order.size, offset + limit);
    if (offset >= end) return;
    let position = offset;
    // Players of one dense score are contiguous: its score and rank are computed once per run.
    let score = -1;
    let runEnd = -1;
    let sharedRank = 0;
    const high = this.#high;
    this.#order.forEachFrom(offset, (handle) => {
      if (high !== undefined && high[handle]! > 0) {
        const value = high[handle]!;
        if (visit(handle, value, this.#rank(position, value)) === false) return false;
      } else {
        if (position >= runEnd) {
          score = this.#low.scoreAt(position - this.#highCount);
          sharedRank = this.#countAbove(score) + 1;
          runEnd = sharedRank - 1 + this.#low.countOf(score);
        }
        const rank = this.tieBreak === 'shared' ? sharedRank : position + 1;
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
  #scoreOf(handle: number, position: number): number {
    const high = this.#high?.[handle] ?? 0;
    if (high > 0) return high;
    if (position >= 0) return this.#low.scoreAt(position - this.#highCount);
    // A block inside one score's run holds that score for every player in it, so the player need
    // not be looked for in the block (a scan of up to blockSize handles). At scale nearly every
    // block is such a block: a score is shared by far more players than a block holds.
    const first = this.#order.blockStartOf(handle) - this.#highCount;
    if (first >= 0) {
      const score = this.#low.scoreAt(first);
      const runEnd = this.#low.total - this.#low.countBelow(score);
      if (first + this.#order.blockSizeOf(handle) <= runEnd) return score;
    }
    return this.#low.scoreAt(this.#order.positionOf(handle) - this.#highCount);
  }

  /** Removes a placed player from the order and the counts; returns their score. */
  #take(handle: number): number {
    const position = this.#order.remove(handle);
    if (position < TOP_LIST_SIZE) this.#topList = undefined;
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
  #place(handle: number, score: number, seq: number): void {
    if (score < this.#low.limit) {
      const start = this.#highCount + this.#low.countAbove(score);
      const position = this.#inSeqOrder(start, start + this.#low.countOf(score), seq);
      if (position < TOP_LIST_SIZE) this.#topList = undefined;
      this.#low.add(score, 1);
      this.#order.insert(position, handle);
      return;
    }
    const position = this.#inSeqOrder(
      this.#highPositionBelow(score, true),
      this.#highPositionBelow(score, false),
      seq,
    );
    if (position < TOP_LIST_SIZE) this.#topList = undefined;
    this.#high = grown(this.#high ?? new Float64Array(1024), handle + 1);
    this.#high[handle] = score;
    this.#highCount++;
    this.#order.insert(position, handle);
  }

  /**
   * Positions `from` … `to` - 1 hold players of one score in seq order: the position before the
   * first whose seq is above `seq`. Wins mostly come in log order, so the end is checked first.
   * Every placement passes here (or through #placeAll), which keeps #placedSeq.
   */
  #inSeqOrder(from: number, to: number, seq: number): number {
    // Newer than every placed player's win (the common case): the end, without reading the order.
    if (seq > this.#placedSeq) {
      this.#placedSeq = seq;
      return to;
    }
    if (from === to || this.#seqs.get(this.#order.at(to - 1)) < seq) return to;
    let lo = from;
    let hi = to - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#seqs.get(this.#order.at(mid)) < seq) lo = mid + 1;
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
      const value = high![this.#order.at(mid)]!;
      if (orEqual ? value > score : value >= score) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A player met or restored waits to be placed: their pair's index is kept in their `blockOf` entry. */
  #wait(handle: number, score: number, growth: number): void {
    this.#order.park(handle, this.#waiting.add(handle, score, growth), growth);
  }

  /**
   * Places the players met or restored since the last read. A few are placed one by one, in seq
   * order, so that equal scores keep the order of the log. Many (a rebuild, a restore, a long
   * replay) are sorted into rank order and merged with the placed players, and the order and the
   * counts are built again in one pass: O(players) instead of one block move per player.
   */
  #placePending(): void {
    const count = this.#waiting.count;
    if (count === 0) return;
    const first = this.#order.size;
    const { handles, scores } = this.#waiting.take();
    if (count === 1) {
      this.#place(handles[0]!, scores[0]!, this.#seqs.get(handles[0]!));
      this.#order.unpark();
      return;
    }
    const seqs = new Float64Array(count);
    for (let i = 0; i < count; i++) seqs[i] = this.#seqs.get(handles[i]!);
    const bySeq = sortedBySeq(seqs);
    // A merge costs a pass over every placed player: worth it for a replay's many, not for a few
    // thousand met while millions are placed (each placement alone is a few microseconds).
    if (count < this.#bulkPlacement || count * MERGE_SHARE < first) {
      for (const i of bySeq) this.#place(handles[i]!, scores[i]!, seqs[i]!);
      this.#order.unpark();
      return;
    }
    this.#placeAll(inRankOrder(bySeq, scores, this.#low.limit, handles), handles, scores, seqs);
  }

  /**
   * Merges the waiting players (`pending`, in rank order; `handles`, `scores` and `seqs` in the
   * order met) with the placed ones; builds the order and counts again.
   */
  #placeAll(pending: Int32Array, handles: Int32Array, scores: Float64Array, seqs: Float64Array): void {
    const first = this.#order.size;
    const placed = new Int32Array(first);
    const placedScores = new Float64Array(first);
    let n = 0;
    this.#walk(0, first, (handle, score) => {
      placed[n] = handle;
      placedScores[n++] = score;
    });
    // Until the order is loaded again, a waiting player's blockOf entry says where their score is.
    const scoreOf = (handle: number): number => scores[this.#order.parked(handle)]!;
    const merged = mergedInRankOrder(
      { handles: placed, scoreOf: (_, at) => placedScores[at]! },
      { handles: pending, scoreOf },
      (handle) => this.#seqs.get(handle),
    );
    const denseCounts = new Int32Array(
      Math.min(this.#low.limit, highestDense(scores, scores.length, this.#low.limit) + 1),
    );
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      if (score < this.#low.limit) denseCounts[score]!++;
      else {
        const handle = handles[i]!;
        this.#high = grown(this.#high ?? new Float64Array(1024), handle + 1);
        this.#high[handle] = score;
        this.#highCount++;
      }
      this.#placedSeq = Math.max(this.#placedSeq, seqs[i]!);
    }
    this.#low.addAll(denseCounts);
    this.#order.load(merged);
    this.#topList = undefined;
    // A bulk placement ends a replay or a restore: the capacity its growth (by BULK_GROWTH, or a
    // reserve) left unused goes back. Only then: a trim after a running growth would
    // be undone by the next new player, two copies of every column for nothing.
    if (!this.#oversized) return;
    this.#oversized = false;
    this.#ids.trim();
    this.#seqs.trim(this.#ids.capacity);
    this.#changed.trim(this.#ids.capacity);
  }
}

/**
 * From this many players placed at once, a merge (O(players)) beats placing them one by one: at
 * scale, a few thousand block moves cost about one pass over the order.
 */
const BULK_PLACEMENT = 4096;

/**
 * Growth of the id table during a replay: each growth rewrites every slot at random, so growing by
 * 2 rewrites a slot about once over the replay where TABLE_GROWTH (1.1) rewrites it eight times.
 */
const BULK_GROWTH = 2;

/** A merge is chosen when the players to place are at least 1/MERGE_SHARE of those placed. */
const MERGE_SHARE = 64;
