/**
 * Interns user ids as dense integer handles (0, 1, 2, …) and gives them back, all in typed arrays.
 *
 * Why not `Map<string, number>`: V8 caps a Map at 2^24 entries (16.7 M) while a month of the spec
 * holds 25 M players, and 25 M heap strings would make every full GC mark 25 M objects. Here an id
 * costs its bytes plus 13 bytes of bookkeeping and two hash slots, invisible to the GC.
 *
 * Ids are ASCII ([A-Za-z0-9_-], validated at the edge), so one byte per character.
 */
const EMPTY = 0;
const MAX_ARENA_BYTES = 0xffff_ffff;

export class UserIdTable {
  #bytes = new Uint8Array(1 << 16);
  #offsets = new Uint32Array(1 << 12);
  #lengths = new Uint8Array(1 << 12);
  #hashes = new Uint32Array(1 << 12);
  /** Open addressing with linear probing; a slot holds handle + 1, 0 means empty. */
  #slots = new Int32Array(1 << 13);
  #count = 0;
  #used = 0;
  readonly #decoder = new TextDecoder('latin1');

  get size(): number {
    return this.#count;
  }

  /** Bytes held by the table's arrays (capacity, not just what is used). */
  get byteLength(): number {
    return (
      this.#bytes.byteLength +
      this.#offsets.byteLength +
      this.#lengths.byteLength +
      this.#hashes.byteLength +
      this.#slots.byteLength
    );
  }

  /** The handle of `id`, or -1 when it was never interned. */
  handleOf(id: string): number {
    const hash = hashId(id);
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!;
      if (entry === EMPTY) return -1;
      const handle = entry - 1;
      if (this.#hashes[handle] === hash && this.#equals(handle, id)) return handle;
    }
  }

  /** The handle of `id`, adding it when new. */
  intern(id: string): number {
    const hash = hashId(id);
    const mask = this.#slots.length - 1;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!;
      if (entry === EMPTY) break;
      const handle = entry - 1;
      if (this.#hashes[handle] === hash && this.#equals(handle, id)) return handle;
    }
    const handle = this.#append(id, hash);
    this.#slots[slot] = handle + 1;
    if (this.#count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    return handle;
  }

  idOf(handle: number): string {
    const start = this.#offsets[handle]!;
    return this.#decoder.decode(this.#bytes.subarray(start, start + this.#lengths[handle]!));
  }

  #equals(handle: number, id: string): boolean {
    if (this.#lengths[handle] !== id.length) return false;
    const start = this.#offsets[handle]!;
    for (let i = 0; i < id.length; i++) {
      if (this.#bytes[start + i] !== id.charCodeAt(i)) return false;
    }
    return true;
  }

  #append(id: string, hash: number): number {
    if (id.length === 0 || id.length > 255)
      throw new RangeError(`user id length ${id.length} is outside 1..255`);
    const handle = this.#count;
    if (handle === this.#offsets.length) this.#growHandles();
    if (this.#used + id.length > this.#bytes.length) this.#growArena(this.#used + id.length);
    for (let i = 0; i < id.length; i++) this.#bytes[this.#used + i] = id.charCodeAt(i);
    this.#offsets[handle] = this.#used;
    this.#lengths[handle] = id.length;
    this.#hashes[handle] = hash;
    this.#used += id.length;
    this.#count++;
    return handle;
  }

  #growHandles(): void {
    const capacity = this.#offsets.length * 2;
    this.#offsets = grow(this.#offsets, new Uint32Array(capacity));
    this.#lengths = grow(this.#lengths, new Uint8Array(capacity));
    this.#hashes = grow(this.#hashes, new Uint32Array(capacity));
  }

  #growArena(needed: number): void {
    if (needed > MAX_ARENA_BYTES)
      throw new RangeError('user id arena is full (4 GiB): partition the leaderboard');
    let capacity = this.#bytes.length;
    while (capacity < needed) capacity *= 2;
    this.#bytes = grow(this.#bytes, new Uint8Array(Math.min(capacity, MAX_ARENA_BYTES)));
  }

  #rehash(capacity: number): void {
    const slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let handle = 0; handle < this.#count; handle++) {
      let slot = this.#hashes[handle]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = handle + 1;
    }
    this.#slots = slots;
  }
}

function grow<T extends Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** FNV-1a over the id's character codes, then a murmur3 finaliser so that linear probing spreads well. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
