import { GROWTH, grown, resized } from './typed-arrays.ts';

/**
 * The players met or restored since the last placement, as (handle, score) pairs in the order
 * they were met: a side list, not a column by handle, so that it costs nothing per placed player
 * and does not assume the waiting players' handles are dense (issue #15: a player's slot as its
 * handle). Where a waiting player's pair is, the ranking keeps in the order's `blockOf` entry,
 * which a player not in the order leaves free (`RankOrder.park`).
 */
export class WaitingScores {
  #handles = new Int32Array(16);
  #scores = new Float64Array(16);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  get byteLength(): number {
    return this.#handles.byteLength + this.#scores.byteLength;
  }

  /** Room for `players` pairs in all without copying. */
  reserve(players: number): void {
    if (players <= this.#handles.length) return;
    this.#handles = resized(this.#handles, players);
    this.#scores = resized(this.#scores, players);
  }

  /** Appends a waiting player; returns the pair's index. `growth`: as in `grown`. */
  add(handle: number, score: number, growth = GROWTH): number {
    const at = this.#count++;
    if (at >= this.#handles.length) {
      this.#handles = grown(this.#handles, at + 1, growth);
      this.#scores = grown(this.#scores, at + 1, growth);
    }
    this.#handles[at] = handle;
    this.#scores[at] = score;
    return at;
  }

  scoreAt(at: number): number {
    return this.#scores[at]!;
  }

  setScore(at: number, score: number): void {
    this.#scores[at] = score;
  }

  addPoints(at: number, points: number): void {
    this.#scores[at]! += points;
  }

  /**
   * Hands over every pair (views of `count` handles and scores) and starts empty again. The arrays
   * are kept for the next players met unless a replay made them large: the views stay valid until
   * the next `add`, which a placement does not call.
   */
  take(): { readonly handles: Int32Array; readonly scores: Float64Array } {
    const taken = {
      handles: this.#handles.subarray(0, this.#count),
      scores: this.#scores.subarray(0, this.#count),
    };
    if (this.#handles.length > KEPT) {
      this.#handles = new Int32Array(16);
      this.#scores = new Float64Array(16);
    }
    this.#count = 0;
    return taken;
  }

  /** Replaces every pair's handle h by `map[h]`. */
  renumber(map: Int32Array): void {
    for (let at = 0; at < this.#count; at++) this.#handles[at] = map[this.#handles[at]!]!;
  }

  handleAt(at: number): number {
    return this.#handles[at]!;
  }
}

/** The pairs' arrays are kept between placements up to this many entries (48 KB). */
const KEPT = 4096;
