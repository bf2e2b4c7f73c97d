import { ArrayBlockIds, type BlockIds } from './block-ids.ts';
import { inFullBlocks, renumberedBlocks } from './block-layout.ts';
import { BlockSizeTree } from './block-size-tree.ts';
import { grown } from './typed-arrays.ts';

/**
 * The storage of the rank order (see RankOrder): the blocks, their sequence and sizes, `blockOf`,
 * and the reads (positions, handles at positions, scans), the whole-order rewrites and the
 * parking of waiting players in `blockOf`. RankOrder adds the inserts and removals.
 */
export class BlockStore {
  protected readonly blockSize: number;
  protected blocks: Int32Array[] = [];
  protected sizes = new Int32Array(16);
  /** Block ids in rank order. */
  protected sequence = new Int32Array(16);
  /** Block id → index in `sequence`. */
  protected indexOf = new Int32Array(16);
  /** The block sizes in `sequence`'s order, summed. */
  protected readonly tree = new BlockSizeTree();
  /** Each handle's block id (the ranking's live in the id table's slots: see BlockIds). */
  protected readonly blockOf: BlockIds;
  protected count = 0;
  /** Blocks of size 0 (see RankOrder's compaction): counted where a block's size reaches or leaves 0. */
  protected emptyBlocks = 0;

  protected readonly narrowBlocks: number;

  /** `narrowBlocks`: how many blocks 2-byte `blockOf` entries serve (a test sets it low). */
  constructor(blockSize = 512, narrowBlocks = 0x10000, blockOf: BlockIds = new ArrayBlockIds()) {
    this.blockSize = blockSize;
    this.narrowBlocks = narrowBlocks;
    this.blockOf = blockOf;
  }

  get size(): number {
    return this.count;
  }

  /** Share of the blocks' room in use (for the benchmark and tests). */
  get fill(): number {
    return this.blocks.length === 0 ? 1 : this.count / (this.blocks.length * this.blockSize);
  }

  get byteLength(): number {
    return (
      this.blocks.length * this.blockSize * 4 +
      this.sizes.byteLength +
      this.sequence.byteLength +
      this.indexOf.byteLength +
      this.tree.byteLength +
      this.blockOf.byteLength
    );
  }

  /** Room in `blockOf` for handles 0 … `players` - 1 without copying it. */
  reserve(players: number): void {
    this.blockOf.ensure(players);
  }

  /**
   * Keeps `value` in the `blockOf` entry of `handle`, a player not in the order (so the entry is
   * free): the ranking keeps there where a waiting player's score is (see WaitingScores). A value
   * past 2 bytes widens `blockOf` until `unpark`. `growth`: as in `grown`.
   */
  park(handle: number, value: number, growth?: number): void {
    if (value > 0xffff) this.blockOf.widen();
    this.blockOf.ensure(handle + 1, growth);
    this.blockOf.set(handle, value);
  }

  /** The value `park` kept for `handle`. */
  parked(handle: number): number {
    return this.blockOf.get(handle);
  }

  /** No player is parked any more: `blockOf` goes back to 2 bytes when the blocks allow. */
  unpark(): void {
    if (this.blockOf.wide && this.blocks.length <= this.narrowBlocks) this.blockOf.narrow();
  }

  /**
   * Replaces the whole order with `handles`, in that order, in full blocks: O(n), for placing
   * many players at once (a rebuild or a restore) where inserting one by one would move blocks
   * and split them over and over.
   */
  load(handles: Int32Array): void {
    const laid = inFullBlocks(handles, this.blockSize, this.narrowBlocks, this.blockOf);
    this.blocks = laid.blocks;
    this.sizes = laid.sizes;
    this.sequence = laid.sequence;
    this.indexOf = new Int32Array(laid.sizes.length);
    this.tree.reserve(laid.sizes.length);
    this.count = handles.length;
    this.emptyBlocks = 0;
    this.reindex();
  }

  positionOf(handle: number): number {
    const id = this.blockOf.get(handle);
    return this.tree.sum(this.indexOf[id]!) + this.blocks[id]!.indexOf(handle);
  }

  /**
   * The position of the first handle in `handle`'s block: with `blockSizeOf`, the range the
   * handle is in, without scanning the block for it.
   */
  blockStartOf(handle: number): number {
    return this.tree.sum(this.indexOf[this.blockOf.get(handle)]!);
  }

  /** How many handles `handle`'s block holds (the handle among them). */
  blockSizeOf(handle: number): number {
    return this.sizes[this.blockOf.get(handle)]!;
  }

  /** The handle at `position` (0 … size - 1). */
  at(position: number): number {
    const index = this.tree.blockAt(position, false);
    return this.blocks[this.sequence[index]!]![this.tree.offsetInBlock]!;
  }

  /** Calls `visit` with each handle from `position` on, in order, until it returns false. */
  forEachFrom(position: number, visit: (handle: number) => boolean): void {
    if (position >= this.count) return;
    let index = this.tree.blockAt(position, false);
    let offset = this.tree.offsetInBlock;
    for (; index < this.blocks.length; index++, offset = 0) {
      const id = this.sequence[index]!;
      const block = this.blocks[id]!;
      const size = this.sizes[id]!;
      for (; offset < size; offset++) if (!visit(block[offset]!)) return;
    }
  }

  /**
   * Replaces every handle h by `map[h]`, in the blocks and in `blockOf` (`capacity` entries);
   * the order stays.
   */
  renumber(map: Int32Array, capacity: number): void {
    renumberedBlocks(this.blocks, this.sizes, map);
    this.blockOf.renumber(map, capacity);
  }

  protected appendBlock(): number {
    const id = this.blocks.length;
    this.blocks.push(new Int32Array(this.blockSize));
    this.sizes = grown(this.sizes, id + 1);
    this.sequence = grown(this.sequence, id + 1);
    this.indexOf = grown(this.indexOf, id + 1);
    this.tree.reserve(id + 1);
    this.sizes[id] = 0;
    this.emptyBlocks++;
    this.sequence[id] = id;
    this.indexOf[id] = id;
    if (id === this.narrowBlocks) this.blockOf.widen();
    return id;
  }

  /** Rebuilds indexOf and the tree from sequence and sizes, in O(blocks). */
  protected reindex(): void {
    const n = this.blocks.length;
    for (let i = 0; i < n; i++) this.indexOf[this.sequence[i]!] = i;
    this.tree.rebuild(this.sequence, this.sizes, n);
  }
}
