import { grown } from './typed-arrays.ts';

/**
 * A Fenwick tree over the sizes of the rank order's blocks, in sequence order (index 0 … n - 1):
 * the items before a block, and the block that holds a position, in O(log blocks).
 */
export class BlockSizeTree {
  /** 1-based: entry i sums the blocks i - lowbit(i) … i - 1. */
  #tree = new Int32Array(17);
  #n = 0;
  /** The highest power of two ≤ n: the first step of a descent. */
  #topStep = 0;
  /** Set by `blockAt`: the position's offset in the block it returned. */
  offsetInBlock = 0;

  get byteLength(): number {
    return this.#tree.byteLength;
  }

  /** Room for `blocks` blocks; `rebuild` then counts them. */
  reserve(blocks: number): void {
    this.#tree = grown(this.#tree, blocks + 1);
  }

  /** Counts again, in O(n), the `n` blocks whose sizes are `sizes[sequence[i]]`. */
  rebuild(sequence: Int32Array, sizes: Int32Array, n: number): void {
    this.#n = n;
    this.#topStep = n === 0 ? 0 : 2 ** Math.floor(Math.log2(n));
    const tree = this.#tree;
    for (let i = 0; i < n; i++) tree[i + 1] = sizes[sequence[i]!]!;
    for (let i = 1; i <= n; i++) {
      const parent = i + (i & -i);
      if (parent <= n) tree[parent]! += tree[i]!;
    }
  }

  /** Items in the first `index` blocks. */
  sum(index: number): number {
    let sum = 0;
    for (let i = index; i > 0; i -= i & -i) sum += this.#tree[i]!;
    return sum;
  }

  add(index: number, delta: number): void {
    const n = this.#n;
    for (let i = index + 1; i <= n; i += i & -i) this.#tree[i]! += delta;
  }

  /**
   * One item moved from block `from` to block `to`: -1 and +1 in one walk. The two update paths
   * climb until they meet; from there on they would add and take the same 1, so the walk stops.
   */
  moveOne(from: number, to: number): void {
    const tree = this.#tree;
    const n = this.#n;
    let a = from + 1;
    let b = to + 1;
    while (a !== b) {
      // The smaller one climbs: past the end, so is the other (nothing left to update).
      if (a < b) {
        if (a > n) break;
        tree[a]!--;
        a += a & -a;
      } else {
        if (b > n) break;
        tree[b]!++;
        b += b & -b;
      }
    }
  }

  /**
   * How many blocks hold, together, fewer items than `position` (strict) or at most `position`
   * items (not strict): the index of the block an insert at / a read of `position` uses. Leaves
   * `position`'s offset in that block in `offsetInBlock`: the descent has summed the blocks
   * before it, so a second walk of the tree (`sum`) is not needed.
   */
  blockAt(position: number, strict: boolean): number {
    const tree = this.#tree;
    const n = this.#n;
    let index = 0;
    let remaining = position;
    for (let step = this.#topStep; step > 0; step >>>= 1) {
      const next = index + step;
      if (next <= n && (strict ? tree[next]! < remaining : tree[next]! <= remaining)) {
        index = next;
        remaining -= tree[next]!;
      }
    }
    if (index < n) {
      this.offsetInBlock = remaining;
      return index;
    }
    // Only a position past the end gets here (no caller passes one): the last block, counted again.
    this.offsetInBlock = position - this.sum(n - 1);
    return n - 1;
  }
}
