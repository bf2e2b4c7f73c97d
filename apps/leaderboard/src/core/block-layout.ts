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
  readonly blockOf: Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer>;
}

/**
 * `handles`, in that order, in full blocks of `blockSize`: O(n), for placing many players at once
 * (a rebuild or a restore) where inserting one by one would move blocks and split them over and
 * over. `blockOf` has 2-byte entries while there are at most `narrowBlocks` blocks, else 4.
 */
export function inFullBlocks(handles: Int32Array, blockSize: number, narrowBlocks: number): FullBlocks {
  const count = Math.ceil(handles.length / blockSize);
  let highest = -1;
  for (const handle of handles) if (handle > highest) highest = handle;
  const room = Math.max(16, count);
  const blocks: Int32Array<ArrayBuffer>[] = [];
  const sizes = new Int32Array(room);
  const sequence = new Int32Array(room);
  const blockOfLength = Math.max(1024, highest + 1);
  const blockOf = count > narrowBlocks ? new Uint32Array(blockOfLength) : new Uint16Array(blockOfLength);
  for (let id = 0; id < count; id++) {
    const items = handles.subarray(id * blockSize, (id + 1) * blockSize);
    const block = new Int32Array(blockSize);
    block.set(items);
    blocks.push(block);
    sizes[id] = items.length;
    sequence[id] = id;
    for (const handle of items) blockOf[handle] = id;
  }
  return { blocks, sizes, sequence, blockOf };
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
  blockOf: Uint16Array | Uint32Array,
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
    for (let k = 0; k < size; k++) blockOf[block[k]!] = free;
    sequence[i] = free;
  }
  return kept;
}

/**
 * Replaces every handle h by `map[h]` in the blocks; returns a `blockOf` of `capacity` entries (as
 * wide as `blockOf`) for the new handles. Parked entries are not kept: their owner parks them again.
 */
export function renumberedBlocks(
  blocks: Int32Array[],
  sizes: Int32Array,
  map: Int32Array,
  blockOf: Uint16Array | Uint32Array,
  capacity: number,
): Uint16Array | Uint32Array {
  const to = blockOf instanceof Uint16Array ? new Uint16Array(capacity) : new Uint32Array(capacity);
  for (let id = 0; id < blocks.length; id++) {
    const block = blocks[id]!;
    const size = sizes[id]!;
    for (let i = 0; i < size; i++) {
      const handle = map[block[i]!]!;
      block[i] = handle;
      to[handle] = id;
    }
  }
  return to;
}
