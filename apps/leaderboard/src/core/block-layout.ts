import type { BlockIds } from './block-ids.ts';

/**
 * Rewrites of the rank order's whole block layout, each O(players): a load in full blocks, a
 * renumbering of every handle, and the drop of the empty blocks.
 */

/** A whole rank order laid out in full blocks (see RankOrder.load). */
export interface FullBlocks {
  readonly blocks: Int32Array<ArrayBuffer>[];
  readonly sizes: Int32Array<ArrayBuffer>;
  /** Block ids in rank order: here simply 0 … blocks - 1. */
  readonly sequence: Int32Array<ArrayBuffer>;
}

/**
 * `handles`, in that order, in full blocks of `blockSize`: O(n), for placing many players at once
 * (a rebuild or a restore) where inserting one by one would move blocks and split them over and
 * over. Each handle's block goes into `blockOf`, which has 2-byte entries while there are at most
 * `narrowBlocks` blocks, else 4.
 */
export function inFullBlocks(
  handles: Int32Array,
  blockSize: number,
  narrowBlocks: number,
  blockOf: BlockIds,
): FullBlocks {
  const count = Math.ceil(handles.length / blockSize);
  let highest = -1;
  for (const handle of handles) if (handle > highest) highest = handle;
  const room = Math.max(16, count);
  const blocks: Int32Array<ArrayBuffer>[] = [];
  const sizes = new Int32Array(room);
  const sequence = new Int32Array(room);
  blockOf.ensure(highest + 1);
  if (count > narrowBlocks) blockOf.widen();
  else blockOf.narrow();
  for (let id = 0; id < count; id++) {
    const items = handles.subarray(id * blockSize, (id + 1) * blockSize);
    const block = new Int32Array(blockSize);
    block.set(items);
    blocks.push(block);
    sizes[id] = items.length;
    sequence[id] = id;
    for (const handle of items) blockOf.set(handle, id);
  }
  return { blocks, sizes, sequence };
}

/**
 * Drops every empty block from `sequence` (block ids in rank order); the kept blocks whose ids are
 * past the new count move into the freed ids below it (each move rewrites its items' `blockOf`),
 * so ids stay dense. Returns how many blocks are kept: the caller cuts `blocks` to that and
 * re-indexes. An empty order keeps one (empty) block.
 */
export function dropEmptyBlocks(
  blocks: Int32Array[],
  sizes: Int32Array,
  sequence: Int32Array,
  blockOf: BlockIds,
): number {
  const n = blocks.length;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const id = sequence[i]!;
    if (sizes[id]! > 0) sequence[kept++] = id;
  }
  if (kept === 0) sequence[kept++] = 0;
  const used = new Uint8Array(n);
  for (let i = 0; i < kept; i++) used[sequence[i]!] = 1;
  let free = 0;
  for (let i = 0; i < kept; i++) {
    const id = sequence[i]!;
    if (id < kept) continue;
    while (used[free] === 1) free++;
    used[free] = 1;
    const block = blocks[id]!;
    const size = sizes[id]!;
    blocks[free] = block;
    sizes[free] = size;
    for (let k = 0; k < size; k++) blockOf.set(block[k]!, free);
    sequence[i] = free;
  }
  return kept;
}

/** Replaces every handle h by `map[h]` in the blocks (`blockOf` moves on its own: BlockIds.renumber). */
export function renumberedBlocks(blocks: Int32Array[], sizes: Int32Array, map: Int32Array): void {
  for (let id = 0; id < blocks.length; id++) {
    const block = blocks[id]!;
    const size = sizes[id]!;
    for (let i = 0; i < size; i++) block[i] = map[block[i]!]!;
  }
}
