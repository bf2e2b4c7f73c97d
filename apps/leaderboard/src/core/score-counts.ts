import { grown } from './typed-arrays.ts';

/**
 * How many players hold each score, for scores 0 … limit - 1: a Fenwick tree over the score
 * values plus the plain counts. Competition rank is 1 + the number of players above, found in
 * O(log max score), and the score at a position in the ranking is one descent of the tree.
 *
 * The tree grows (by doubling) with the highest score seen, so a month of small scores costs a few
 * kilobytes; `limit` caps it (the ranking keeps scores at or above it elsewhere).
 */
export class ScoreCounts {
  readonly limit: number;
  /** Fenwick tree, 1-based: tree[i] sums counts of scores (i - lowbit(i)) … i - 1. */
  #tree: Int32Array;
  #counts: Int32Array;
  #total = 0;

  constructor(limit: number) {
    if (!Number.isInteger(Math.log2(limit))) throw new RangeError('score limit must be a power of two');
    this.limit = limit;
    const size = Math.min(limit, 1024);
    this.#tree = new Int32Array(size + 1);
    this.#counts = new Int32Array(size);
  }

  get total(): number {
    return this.#total;
  }

  get byteLength(): number {
    return this.#tree.byteLength + this.#counts.byteLength;
  }

  countOf(score: number): number {
    return score < this.#counts.length ? this.#counts[score]! : 0;
  }

  add(score: number, delta: number): void {
    if (score >= this.#counts.length) this.#grow(score);
    this.#counts[score]! += delta;
    this.#total += delta;
    const tree = this.#tree;
    for (let i = score + 1; i < tree.length; i += i & -i) tree[i]! += delta;
  }

  /**
   * Adds `counts[score]` players at each score (a bulk placement): the counts are summed and the
   * tree is built again from them, in O(scores) instead of O(players · log scores).
   */
  addAll(counts: Int32Array): void {
    let highest = counts.length - 1;
    while (highest >= 0 && counts[highest] === 0) highest--;
    if (highest < 0) return;
    if (highest >= this.#counts.length) this.#grow(highest);
    const own = this.#counts;
    const tree = this.#tree;
    for (let score = 0; score <= highest; score++) {
      own[score]! += counts[score]!;
      this.#total += counts[score]!;
    }
    for (let i = 1; i < tree.length; i++) tree[i] = own[i - 1]!;
    for (let i = 1; i < tree.length; i++) {
      const parent = i + (i & -i);
      if (parent < tree.length) tree[parent]! += tree[i]!;
    }
  }

  /** Players with a score strictly below `score`. */
  countBelow(score: number): number {
    const tree = this.#tree;
    let sum = 0;
    for (let i = Math.min(score, tree.length - 1); i > 0; i -= i & -i) sum += tree[i]!;
    return sum;
  }

  /** Players with a score strictly above `score`. */
  countAbove(score: number): number {
    return this.#total - this.countBelow(score) - this.countOf(score);
  }

  /** The score of the player at `position` (0-based from the highest score); position < total. */
  scoreAt(position: number): number {
    // The tree covers a power-of-two range, so its length - 1 is the first step of the descent.
    // From the bottom: the largest prefix of scores holding at most `fromBottom` players.
    let fromBottom = this.#total - 1 - position;
    const tree = this.#tree;
    let index = 0;
    for (let step = tree.length - 1; step > 0; step >>>= 1) {
      const next = index + step;
      if (next < tree.length && tree[next]! <= fromBottom) {
        index = next;
        fromBottom -= tree[next]!;
      }
    }
    return index;
  }

  #grow(score: number): void {
    if (score >= this.limit) throw new RangeError(`score ${score} is beyond the dense range`);
    let size = this.#counts.length;
    while (size <= score) size *= 2;
    size = Math.min(size, this.limit);
    // A Fenwick tree over a power-of-two range extends by copying: every new node covers only the
    // (empty) new scores, except the last, which covers everything.
    const old = this.#counts.length;
    this.#counts = grown(this.#counts, size);
    const tree = new Int32Array(size + 1);
    tree.set(this.#tree);
    for (let n = old * 2; n <= size; n *= 2) tree[n] = this.#total;
    this.#tree = tree;
  }
}
