import { grown, resized } from './typed-arrays.ts';

/**
 * Every player's handle in rank order, in blocks of at most `blockSize` handles: a two-level list
 * with a Fenwick tree over the block sizes, so a position is found in O(log blocks) and an insert
 * or removal moves at most one block's worth of 4-byte handles (one memmove).
 *
 * The ranking never compares keys here: it computes where a player goes (after everyone with a
 * score at least as high, from the score counts) and inserts there, so within a score the order
 * is the order of arrival. `blockOf` (2 bytes per player while there are < 65,536 blocks, then 4)
 * says which block holds a player; the offset in the block is found by `indexOf`, a native scan.
 *
 * Block ids are dense (a dropped block's id is given to a block past the new count), and
 * `sequence` lists them in rank order. Splitting a block (unless an empty one follows it) or
 * dropping the empty ones rebuilds the sequence's index and Fenwick tree in O(blocks); a split
 * that does adds spare empty blocks after the split one (see SPARE_BLOCKS), so that happens
 * once per several blocks' worth of inserts at one place.
 */
export class RankOrder {
  readonly #blockSize: number;
  #blocks: Int32Array[] = [];
  #sizes = new Int32Array(16);
  /** Block ids in rank order. */
  #sequence = new Int32Array(16);
  /** Block id → index in #sequence. */
  #indexOf = new Int32Array(16);
  /** Fenwick tree over #sequence (1-based) of block sizes. */
  #tree = new Int32Array(17);
  #blockOf: Uint16Array | Uint32Array = new Uint16Array(1024);
  /** The highest power of two ≤ the number of blocks: the first step of a Fenwick descent. */
  #topStep = 0;
  #count = 0;
  /** Blocks of size 0 (see #compact): counted where a block's size reaches or leaves 0. */
  #emptyBlocks = 0;
  /** Set by #countBlocksBelow: the position's offset in the block it returned. */
  #offsetInBlock = 0;

  readonly #narrowBlocks: number;

  /** `narrowBlocks`: how many blocks 2-byte `blockOf` entries serve (a test sets it low). */
  constructor(blockSize = 512, narrowBlocks = 0x10000) {
    this.#blockSize = blockSize;
    this.#narrowBlocks = narrowBlocks;
  }

  get size(): number {
    return this.#count;
  }

  /** Share of the blocks' room in use (for the benchmark and tests). */
  get fill(): number {
    return this.#blocks.length === 0 ? 1 : this.#count / (this.#blocks.length * this.#blockSize);
  }

  get byteLength(): number {
    return (
      this.#blocks.length * this.#blockSize * 4 +
      this.#sizes.byteLength +
      this.#sequence.byteLength +
      this.#indexOf.byteLength +
      this.#tree.byteLength +
      this.#blockOf.byteLength
    );
  }

  /** Room in `blockOf` for handles 0 … `players` - 1 without copying it. */
  reserve(players: number): void {
    if (players > this.#blockOf.length) this.#blockOf = resized(this.#blockOf, players);
  }

  /**
   * Keeps `value` in the `blockOf` entry of `handle`, a player not in the order (so the entry is
   * free): the ranking keeps there where a waiting player's score is (see WaitingScores). A value
   * past 2 bytes widens `blockOf` until `unpark`. `growth`: as in `grown`.
   */
  park(handle: number, value: number, growth?: number): void {
    if (value > 0xffff && this.#blockOf instanceof Uint16Array)
      this.#blockOf = Uint32Array.from(this.#blockOf);
    if (handle >= this.#blockOf.length) this.#blockOf = grown(this.#blockOf, handle + 1, growth);
    this.#blockOf[handle] = value;
  }

  /** The value `park` kept for `handle`. */
  parked(handle: number): number {
    return this.#blockOf[handle]!;
  }

  /** No player is parked any more: `blockOf` goes back to 2 bytes when the blocks allow. */
  unpark(): void {
    if (this.#blockOf instanceof Uint32Array && this.#blocks.length <= this.#narrowBlocks)
      this.#blockOf = Uint16Array.from(this.#blockOf);
  }

  /** Inserts `handle` so that it ends up at `position` (0 … size). */
  insert(position: number, handle: number): void {
    if (this.#blocks.length === 0) {
      this.#appendBlock();
      this.#reindex();
    }
    // The block whose range [start, start + size] holds the position (the earlier one at a boundary).
    let index = this.#countBlocksBelow(position, true);
    let offset = this.#offsetInBlock;
    let id = this.#sequence[index]!;
    if (this.#sizes[id] === this.#blockSize) {
      const at = this.#split(index, offset);
      // At the split point itself the old block has room, unless the split left it full.
      if (offset > at || at === this.#blockSize) {
        offset -= at;
        index++;
        id = this.#sequence[index]!;
      }
    }
    const block = this.#blocks[id]!;
    block.copyWithin(offset + 1, offset, this.#sizes[id]);
    block[offset] = handle;
    if (this.#sizes[id]!++ === 0) this.#emptyBlocks--;
    this.#add(index, 1);
    if (handle >= this.#blockOf.length) this.#blockOf = grown(this.#blockOf, handle + 1);
    this.#blockOf[handle] = id;
    this.#count++;
  }

  /**
   * Replaces the whole order with `handles`, in that order, in full blocks: O(n), for placing
   * many players at once (a rebuild or a restore) where inserting one by one would move blocks
   * and split them over and over.
   */
  load(handles: Int32Array): void {
    const size = this.#blockSize;
    const count = Math.ceil(handles.length / size);
    let highest = -1;
    for (const handle of handles) if (handle > highest) highest = handle;
    const room = Math.max(16, count);
    this.#blocks = [];
    this.#sizes = new Int32Array(room);
    this.#sequence = new Int32Array(room);
    this.#indexOf = new Int32Array(room);
    this.#tree = new Int32Array(room + 1);
    const blockOfLength = Math.max(1024, highest + 1);
    this.#blockOf =
      count > this.#narrowBlocks ? new Uint32Array(blockOfLength) : new Uint16Array(blockOfLength);
    for (let id = 0; id < count; id++) {
      const items = handles.subarray(id * size, (id + 1) * size);
      const block = new Int32Array(size);
      block.set(items);
      this.#blocks.push(block);
      this.#sizes[id] = items.length;
      this.#sequence[id] = id;
      for (const handle of items) this.#blockOf[handle] = id;
    }
    this.#count = handles.length;
    this.#emptyBlocks = 0;
    this.#reindex();
  }

  /** Removes `handle` and returns the position it had. */
  remove(handle: number): number {
    const id = this.#blockOf[handle]!;
    const block = this.#blocks[id]!;
    const size = this.#sizes[id]!;
    const offset = block.indexOf(handle);
    if (offset < 0 || offset >= size) throw new Error(`handle ${handle} is not in its block`);
    const index = this.#indexOf[id]!;
    const position = this.#sum(index) + offset;
    block.copyWithin(offset, offset + 1, size);
    this.#sizes[id] = size - 1;
    this.#add(index, -1);
    this.#count--;
    this.#compact(index);
    return position;
  }

  positionOf(handle: number): number {
    const id = this.#blockOf[handle]!;
    return this.#sum(this.#indexOf[id]!) + this.#blocks[id]!.indexOf(handle);
  }

  /**
   * The position of the first handle in `handle`'s block: with `blockSizeOf`, the range the
   * handle is in, without scanning the block for it.
   */
  blockStartOf(handle: number): number {
    return this.#sum(this.#indexOf[this.#blockOf[handle]!]!);
  }

  /** How many handles `handle`'s block holds (the handle among them). */
  blockSizeOf(handle: number): number {
    return this.#sizes[this.#blockOf[handle]!]!;
  }

  /** The handle at `position` (0 … size - 1). */
  at(position: number): number {
    const index = this.#countBlocksBelow(position, false);
    return this.#blocks[this.#sequence[index]!]![this.#offsetInBlock]!;
  }

  /** Calls `visit` with each handle from `position` on, in order, until it returns false. */
  forEachFrom(position: number, visit: (handle: number) => boolean): void {
    if (position >= this.#count) return;
    let index = this.#countBlocksBelow(position, false);
    let offset = this.#offsetInBlock;
    for (; index < this.#blocks.length; index++, offset = 0) {
      const id = this.#sequence[index]!;
      const block = this.#blocks[id]!;
      const size = this.#sizes[id]!;
      for (; offset < size; offset++) if (!visit(block[offset]!)) return;
    }
  }

  /**
   * Replaces every handle h by `map[h]`, in the blocks and in a `blockOf` of `capacity` entries;
   * the order stays. Parked entries are not kept: their owner parks them again.
   */
  renumber(map: Int32Array, capacity: number): void {
    this.#blockOf =
      this.#blockOf instanceof Uint16Array ? new Uint16Array(capacity) : new Uint32Array(capacity);
    for (let id = 0; id < this.#blocks.length; id++) {
      const block = this.#blocks[id]!;
      const size = this.#sizes[id]!;
      for (let i = 0; i < size; i++) {
        const handle = map[block[i]!]!;
        block[i] = handle;
        this.#blockOf[handle] = id;
      }
    }
  }

  /**
   * How many blocks (in sequence) hold, together, fewer items than `position` (strict) or at most
   * `position` items (not strict): the index of the block an insert at / a read of `position` uses.
   * Leaves `position`'s offset in that block in #offsetInBlock: the descent has summed the blocks
   * before it, so a second walk of the tree (#sum) is not needed.
   */
  #countBlocksBelow(position: number, strict: boolean): number {
    const tree = this.#tree;
    const n = this.#blocks.length;
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
      this.#offsetInBlock = remaining;
      return index;
    }
    // Only a position past the end gets here (no caller passes one): the last block, counted again.
    this.#offsetInBlock = position - this.#sum(n - 1);
    return n - 1;
  }

  /** Items in the first `index` blocks of the sequence. */
  #sum(index: number): number {
    let sum = 0;
    for (let i = index; i > 0; i -= i & -i) sum += this.#tree[i]!;
    return sum;
  }

  #add(index: number, delta: number): void {
    const n = this.#blocks.length;
    for (let i = index + 1; i <= n; i += i & -i) this.#tree[i]! += delta;
  }

  #appendBlock(): number {
    const id = this.#blocks.length;
    this.#blocks.push(new Int32Array(this.#blockSize));
    this.#sizes = grown(this.#sizes, id + 1);
    this.#sequence = grown(this.#sequence, id + 1);
    this.#indexOf = grown(this.#indexOf, id + 1);
    this.#tree = grown(this.#tree, id + 2);
    this.#sizes[id] = 0;
    this.#emptyBlocks++;
    this.#sequence[id] = id;
    this.#indexOf[id] = id;
    if (id === this.#narrowBlocks && this.#blockOf instanceof Uint16Array)
      this.#blockOf = Uint32Array.from(this.#blockOf);
    return id;
  }

  /**
   * Splits the full block at `index` where the insert goes: the items from `at` on move to a new
   * block placed right after it, and the insert lands at the end of the old block (or, at the very
   * end, in the new one). Every insert of the ranking is at the end of a score's run, so inserts
   * come in streams at a few places; splitting there leaves full blocks behind, where halving
   * would leave a half-full block per split. Returns the split point.
   */
  #split(index: number, at: number): number {
    const size = this.#blockSize;
    const id = this.#sequence[index]!;
    const successor = index + 1 < this.#blocks.length ? this.#sequence[index + 1]! : -1;
    if (successor >= 0 && this.#sizes[successor] === 0) {
      // An empty block already follows: the items move there, and no block is re-indexed.
      const to = this.#blocks[successor]!;
      to.set(this.#blocks[id]!.subarray(at, size));
      for (let i = 0; i < size - at; i++) this.#blockOf[to[i]!] = successor;
      this.#sizes[id] = at;
      this.#sizes[successor] = size - at;
      this.#add(index, at - size);
      this.#add(index + 1, size - at);
      if (size > at) this.#emptyBlocks--;
      if (at === 0) this.#emptyBlocks++;
      return at;
    }
    // Empty spares go between the split block and its tail: the inserts that fill the split
    // block go on into them through the branch above, so one re-index serves SPARE_BLOCKS + 1 splits.
    const added = 1 + SPARE_BLOCKS;
    const first = this.#blocks.length;
    for (let i = 0; i < added; i++) this.#appendBlock();
    const fresh = first + SPARE_BLOCKS;
    const from = this.#blocks[id]!;
    const to = this.#blocks[fresh]!;
    to.set(from.subarray(at, size));
    for (let i = 0; i < size - at; i++) this.#blockOf[to[i]!] = fresh;
    this.#sizes[id] = at;
    this.#sizes[fresh] = size - at;
    if (size > at) this.#emptyBlocks--;
    if (at === 0) this.#emptyBlocks++;
    const n = this.#blocks.length;
    this.#sequence.copyWithin(index + 1 + added, index + 1, n - added);
    for (let i = 0; i < added; i++) this.#sequence[index + 1 + i] = first + i;
    this.#reindex();
    return at;
  }

  /**
   * Keeps blocks reasonably full: a block that fits, with its successor, into three quarters of a
   * block takes the successor's items. A block left empty stays in the sequence (a split next to
   * it reuses it) until the empty blocks are an eighth of all; then one pass drops them. Dropping
   * each at once re-indexed every block, O(blocks) for every few hundred removals.
   */
  #compact(index: number): void {
    const id = this.#sequence[index]!;
    const n = this.#blocks.length;
    const size = this.#sizes[id]!;
    if (size === 0) {
      this.#emptied();
      return;
    }
    if (index + 1 >= n) return;
    const next = this.#sequence[index + 1]!;
    const nextSize = this.#sizes[next]!;
    if (nextSize === 0 || size + nextSize > (this.#blockSize >>> 2) * 3) return;
    const block = this.#blocks[id]!;
    block.set(this.#blocks[next]!.subarray(0, nextSize), size);
    for (let i = size; i < size + nextSize; i++) this.#blockOf[block[i]!] = id;
    this.#sizes[id] = size + nextSize;
    this.#sizes[next] = 0;
    this.#add(index, nextSize);
    this.#add(index + 1, -nextSize);
    this.#emptied();
  }

  #emptied(): void {
    if (++this.#emptyBlocks > (this.#blocks.length >>> 3) + 2) this.#dropEmpty();
  }

  /**
   * Drops every empty block from the sequence; the kept blocks whose ids are past the new count
   * move into the freed ids below it (each move rewrites its items' `blockOf`).
   */
  #dropEmpty(): void {
    const n = this.#blocks.length;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const id = this.#sequence[i]!;
      if (this.#sizes[id]! > 0) this.#sequence[kept++] = id;
    }
    if (kept === 0) this.#sequence[kept++] = 0; // an empty order keeps one block
    const used = new Uint8Array(n);
    for (let i = 0; i < kept; i++) used[this.#sequence[i]!] = 1;
    let free = 0;
    for (let i = 0; i < kept; i++) {
      const id = this.#sequence[i]!;
      if (id < kept) continue;
      while (used[free] === 1) free++;
      used[free] = 1;
      const block = this.#blocks[id]!;
      const size = this.#sizes[id]!;
      this.#blocks[free] = block;
      this.#sizes[free] = size;
      for (let k = 0; k < size; k++) this.#blockOf[block[k]!] = free;
      this.#sequence[i] = free;
    }
    this.#blocks.length = kept;
    this.#emptyBlocks = this.#sizes[this.#sequence[0]!] === 0 ? 1 : 0;
    this.#reindex();
  }

  /** Rebuilds #indexOf and the Fenwick tree from #sequence and #sizes, in O(blocks). */
  #reindex(): void {
    const n = this.#blocks.length;
    this.#topStep = highestBit(n);
    const tree = this.#tree;
    for (let i = 0; i < n; i++) {
      const id = this.#sequence[i]!;
      this.#indexOf[id] = i;
      tree[i + 1] = this.#sizes[id]!;
    }
    for (let i = 1; i <= n; i++) {
      const parent = i + (i & -i);
      if (parent <= n) tree[parent]! += tree[i]!;
    }
  }
}

/**
 * Empty blocks a split that re-indexes adds besides the one for the tail. Inserts come in streams
 * at the ends of a few score runs, so a block split once fills and splits again: a re-index is
 * O(blocks) (50,000 at 25 M players), and at scale it was a twentieth of an update's time.
 */
const SPARE_BLOCKS = 3;

function highestBit(n: number): number {
  return n === 0 ? 0 : 2 ** Math.floor(Math.log2(n));
}
