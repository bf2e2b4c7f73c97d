import { dropEmptyBlocks } from './block-layout.ts';
import { BlockStore } from './block-store.ts';

/**
 * Every player's handle in rank order, in blocks of at most `blockSize` handles: a two-level list
 * with a Fenwick tree over the block sizes, so a position is found in O(log blocks) and an insert
 * or removal moves at most one block's worth of 4-byte handles (one memmove).
 *
 * The ranking never compares keys here: it computes where a player goes (from the score counts)
 * and inserts there, so within a score the order is the order of arrival. `blockOf` (2 bytes per
 * player while there are < 65,536 blocks, then 4) says which block holds a player; the offset in
 * the block is found by `indexOf`, a native scan.
 *
 * Block ids are dense (see dropEmptyBlocks), and `sequence` lists them in rank order. Splitting a
 * block (unless an empty one follows it) or dropping the empty ones rebuilds the sequence's index
 * and tree in O(blocks); a split that does adds spare empty blocks after the split one (see
 * SPARE_BLOCKS), so that happens once per several blocks' worth of inserts at one place.
 */
export class RankOrder extends BlockStore {
  /** The handle `locate` found last (-1: none, or moved since) and its offset in its block. */
  #located = -1;
  #locatedOffset = 0;

  /** Inserts `handle` so that it ends up at `position` (0 … size). */
  insert(position: number, handle: number): void {
    this.#located = -1; // positions move: a located offset may be stale
    if (this.blocks.length === 0) {
      this.appendBlock();
      this.reindex();
    }
    // The block whose range [start, start + size] holds the position (the earlier one at a boundary).
    let index = this.tree.blockAt(position, true);
    let offset = this.tree.offsetInBlock;
    let id = this.sequence[index]!;
    if (this.sizes[id] === this.blockSize) {
      const at = this.#split(index, offset);
      // At the split point itself the old block has room, unless the split left it full.
      if (offset > at || at === this.blockSize) {
        offset -= at;
        index++;
        id = this.sequence[index]!;
      }
    }
    const block = this.blocks[id]!;
    block.copyWithin(offset + 1, offset, this.sizes[id]);
    block[offset] = handle;
    if (this.sizes[id]!++ === 0) this.emptyBlocks--;
    this.tree.add(index, 1);
    this.blockOf.ensure(handle + 1);
    this.blockOf.set(handle, id);
    this.count++;
  }

  /** Removes `handle` and returns the position it had. */
  remove(handle: number): number {
    this.#located = -1; // positions move: a located offset may be stale
    const id = this.blockOf.get(handle);
    const block = this.blocks[id]!;
    const size = this.sizes[id]!;
    const offset = block.indexOf(handle);
    if (offset < 0 || offset >= size) throw new Error(`handle ${handle} is not in its block`);
    const index = this.indexOf[id]!;
    const position = this.tree.sum(index) + offset;
    block.copyWithin(offset, offset + 1, size);
    this.sizes[id] = size - 1;
    this.tree.add(index, -1);
    this.count--;
    this.#compact(index);
    return position;
  }

  /** The position of `handle`; remembers where it is for a `moveUp` of it right after. */
  locate(handle: number): number {
    const id = this.blockOf.get(handle);
    const offset = this.blocks[id]!.indexOf(handle);
    if (offset < 0 || offset >= this.sizes[id]!) throw new Error(`handle ${handle} is not in its block`);
    this.#located = handle;
    this.#locatedOffset = offset;
    return this.tree.sum(this.indexOf[id]!) + offset;
  }

  /**
   * Moves the handle `locate` just found to `position` (counted without it), at or before its
   * own: a raised score. A remove and an insert would walk the tree twice; here the block sizes
   * change in one walk (moveOne), and the tree is read for `position` before the handle leaves
   * its block, which counts it in no block before `position`'s (both blocks are before it).
   */
  moveUp(handle: number, position: number): void {
    if (this.#located !== handle) throw new Error(`handle ${handle} was not located`);
    this.#located = -1;
    const from = this.blockOf.get(handle);
    const fromOffset = this.#locatedOffset;
    const index = this.tree.blockAt(position, true);
    const offset = this.tree.offsetInBlock;
    const id = this.sequence[index]!;
    const target = this.blocks[id]!;
    if (id === from) {
      target.copyWithin(offset + 1, offset, fromOffset);
      target[offset] = handle;
      return;
    }
    if (this.sizes[id] === this.blockSize) {
      // The target block splits, which re-indexes the blocks: the plain way.
      this.remove(handle);
      this.insert(position, handle);
      return;
    }
    const fromIndex = this.indexOf[from]!;
    this.blocks[from]!.copyWithin(fromOffset, fromOffset + 1, this.sizes[from]);
    this.sizes[from]!--;
    target.copyWithin(offset + 1, offset, this.sizes[id]);
    target[offset] = handle;
    if (this.sizes[id]!++ === 0) this.emptyBlocks--;
    this.blockOf.set(handle, id);
    this.tree.moveOne(fromIndex, index);
    this.#compact(fromIndex);
  }

  /**
   * Splits the full block at `index` where the insert goes: the items from `at` on move to a new
   * block placed right after it, and the insert lands at the end of the old block (or, at the very
   * end, in the new one). Every insert of the ranking is at the end of a score's run, so inserts
   * come in streams at a few places; splitting there leaves full blocks behind, where halving
   * would leave a half-full block per split. Returns the split point.
   */
  #split(index: number, at: number): number {
    const size = this.blockSize;
    const id = this.sequence[index]!;
    const successor = index + 1 < this.blocks.length ? this.sequence[index + 1]! : -1;
    if (successor >= 0 && this.sizes[successor] === 0) {
      // An empty block already follows: the items move there, and no block is re-indexed.
      const to = this.blocks[successor]!;
      to.set(this.blocks[id]!.subarray(at, size));
      for (let i = 0; i < size - at; i++) this.blockOf.set(to[i]!, successor);
      this.sizes[id] = at;
      this.sizes[successor] = size - at;
      this.tree.add(index, at - size);
      this.tree.add(index + 1, size - at);
      if (size > at) this.emptyBlocks--;
      if (at === 0) this.emptyBlocks++;
      return at;
    }
    // Empty spares go between the split block and its tail: the inserts that fill the split
    // block go on into them through the branch above, so one re-index serves SPARE_BLOCKS + 1 splits.
    const added = 1 + SPARE_BLOCKS;
    const first = this.blocks.length;
    for (let i = 0; i < added; i++) this.appendBlock();
    const fresh = first + SPARE_BLOCKS;
    const from = this.blocks[id]!;
    const to = this.blocks[fresh]!;
    to.set(from.subarray(at, size));
    for (let i = 0; i < size - at; i++) this.blockOf.set(to[i]!, fresh);
    this.sizes[id] = at;
    this.sizes[fresh] = size - at;
    if (size > at) this.emptyBlocks--;
    if (at === 0) this.emptyBlocks++;
    const n = this.blocks.length;
    this.sequence.copyWithin(index + 1 + added, index + 1, n - added);
    for (let i = 0; i < added; i++) this.sequence[index + 1 + i] = first + i;
    this.reindex();
    return at;
  }

  /**
   * Keeps blocks reasonably full: a block that fits, with its successor, into three quarters of a
   * block takes the successor's items. A block left empty stays in the sequence (a split next to
   * it reuses it) until the empty blocks are an eighth of all; then one pass drops them. Dropping
   * each at once re-indexed every block, O(blocks) for every few hundred removals.
   */
  #compact(index: number): void {
    const id = this.sequence[index]!;
    const n = this.blocks.length;
    const size = this.sizes[id]!;
    if (size === 0) {
      this.#emptied();
      return;
    }
    if (index + 1 >= n) return;
    const next = this.sequence[index + 1]!;
    const nextSize = this.sizes[next]!;
    if (nextSize === 0 || size + nextSize > (this.blockSize >>> 2) * 3) return;
    const block = this.blocks[id]!;
    block.set(this.blocks[next]!.subarray(0, nextSize), size);
    for (let i = size; i < size + nextSize; i++) this.blockOf.set(block[i]!, id);
    this.sizes[id] = size + nextSize;
    this.sizes[next] = 0;
    this.tree.add(index, nextSize);
    this.tree.add(index + 1, -nextSize);
    this.#emptied();
  }

  #emptied(): void {
    if (++this.emptyBlocks > (this.blocks.length >>> 3) + 2) this.#dropEmpty();
  }

  /** Drops every empty block from the sequence (see dropEmptyBlocks). */
  #dropEmpty(): void {
    const kept = dropEmptyBlocks(this.blocks, this.sizes, this.sequence, this.blockOf);
    this.blocks.length = kept;
    this.emptyBlocks = this.sizes[this.sequence[0]!] === 0 ? 1 : 0;
    this.reindex();
  }
}

/**
 * Empty blocks a split that re-indexes adds besides the one for the tail. Inserts come in streams
 * at the ends of a few score runs, so a block split once fills and splits again: a re-index is
 * O(blocks) (50,000 at 25 M players), and at scale it was a twentieth of an update's time.
 */
const SPARE_BLOCKS = 3;
