import { GROWTH, grown, mix32, resized } from './typed-arrays.ts';

/**
 * Interns user ids as dense integer handles (0, 1, 2, …) and gives them back, all in typed arrays.
 *
 * Why not `Map<string, number>`: V8 caps a Map at 2^24 entries (16.7 M) while a month of the spec
 * holds 25 M players, and 25 M heap strings would make every full GC mark 25 M objects.
 *
 * Each handle owns three 32-bit words. A 24-character lowercase hex id (the common shape of such
 * ids, a MongoDB ObjectId for one) is stored in them as its 96 bits, so it costs 12 bytes; any
 * other id ([A-Za-z0-9_-], validated at the edge) keeps its bytes in an arena and the words hold
 * the offset and length. The hash is not stored: a rehash recomputes it from the key.
 *
 * The open-addressing table holds, per slot, the handle + 1 in the low 26 bits and 6 low bits of
 * the hash above them (the slot comes from the high bits), so a probe rarely reads a key it does
 * not want (each key read is a cache miss at 25 M players). That caps a table at 2^26 - 1 players (67 M), far above one month of the spec.
 */
const EMPTY = 0;
const HANDLE_BITS = 26;
const HANDLE_MASK = (1 << HANDLE_BITS) - 1;
const TAG_MASK = (1 << (32 - HANDLE_BITS)) - 1;
export const MAX_PLAYERS = HANDLE_MASK - 1;
/** Linear probing stays short at this load because the slot's hash tag skips most foreign keys. */
const MAX_LOAD = 0.85;
/** The load a table sized for a known count (`reserve`, `trim`) starts at: room for a few more. */
const SIZED_LOAD = 0.8;
const MAX_ARENA_BYTES = 0xffff_ffff;
const HEX_LENGTH = 24;

export class UserIdTable {
  /** Three words per handle: the packed hex id, or [arena offset, length, 0]. */
  #keys = new Uint32Array(3 * 1024);
  /** One bit per handle: set when the id is packed hex. */
  #hex = new Uint32Array(32);
  #bytes = new Uint8Array(1024);
  #slots = new Int32Array(2048);
  #count = 0;
  #used = 0;
  /** Ids kept as bytes: while none is, a probe need not read the hex bit (a miss of its own at scale). */
  #others = 0;
  // The key being looked up, parsed once (hex words or not).
  #isHex = false;
  #w0 = 0;
  #w1 = 0;
  #w2 = 0;

  get size(): number {
    return this.#count;
  }

  /** Bytes held by the table's arrays (capacity, not just what is used). */
  get byteLength(): number {
    return this.#keys.byteLength + this.#hex.byteLength + this.#bytes.byteLength + this.#slots.byteLength;
  }

  /** The handle of `id`, or -1 when it was never interned. */
  handleOf(id: string): number {
    const hash = this.#parse(id);
    const slot = this.#find(id, hash);
    const entry = this.#slots[slot]!;
    return entry === EMPTY ? -1 : (entry & HANDLE_MASK) - 1;
  }

  /**
   * The handle of `id`, adding it when new. `growth`: how much the slots and keys grow when full; a
   * caller adding millions at once (a replay) passes more than GROWTH, since each growth rewrites
   * every slot at random and copies every key, and trims the table when done.
   */
  intern(id: string, growth = GROWTH): number {
    const hash = this.#parse(id);
    const slot = this.#find(id, hash);
    const entry = this.#slots[slot]!;
    if (entry !== EMPTY) return (entry & HANDLE_MASK) - 1;
    const handle = this.#append(id, growth);
    this.#slots[slot] = tagged(handle, hash);
    if (this.#count > this.#slots.length * MAX_LOAD) this.#rehash(Math.ceil(this.#slots.length * growth));
    return handle;
  }

  /**
   * Makes room for `players` ids in all (hex ones; others also take their bytes in the arena),
   * so that interning up to that many neither rehashes nor copies the keys.
   */
  reserve(players: number): void {
    const capacity = Math.min(players, MAX_PLAYERS);
    if (3 * capacity > this.#keys.length) this.#keys = resized(this.#keys, 3 * capacity);
    const words = (capacity + 31) >>> 5;
    if (words > this.#hex.length) this.#hex = resized(this.#hex, words);
    if (capacity > this.#slots.length * MAX_LOAD) this.#rehash(Math.ceil(capacity / SIZED_LOAD));
  }

  /**
   * Gives back the unused capacity: the keys and the arena cut to what is used, the slots
   * rehashed to SIZED_LOAD when below what one growth would leave (MAX_LOAD / GROWTH).
   */
  trim(): void {
    const count = this.#count;
    this.#keys = resized(this.#keys, Math.max(3 * count, 3));
    this.#hex = resized(this.#hex, Math.max((count + 31) >>> 5, 1));
    this.#bytes = resized(this.#bytes, Math.max(this.#used, 1));
    const sized = Math.ceil(count / SIZED_LOAD) + 1;
    if (count < this.#slots.length * (MAX_LOAD / GROWTH) && sized < this.#slots.length) this.#rehash(sized);
  }

  /**
   * Gives every id the handle `map[handle]` (`map` a permutation of 0 … size - 1), as a growth of
   * a table keyed by slot will (issue #15). Today only the ranking's test hook asks for it.
   */
  renumber(map: Int32Array): void {
    const from = this.#keys;
    const keys = new Uint32Array(from.length);
    const hex = new Uint32Array(this.#hex.length);
    for (let handle = 0; handle < this.#count; handle++) {
      const to = map[handle]!;
      keys[3 * to] = from[3 * handle]!;
      keys[3 * to + 1] = from[3 * handle + 1]!;
      keys[3 * to + 2] = from[3 * handle + 2]!;
      if (this.#isHexHandle(handle)) hex[to >>> 5]! |= 1 << (to & 31);
    }
    this.#keys = keys;
    this.#hex = hex;
    const slots = this.#slots;
    for (let slot = 0; slot < slots.length; slot++) {
      const entry = slots[slot]!;
      if (entry !== EMPTY) slots[slot] = (entry & ~HANDLE_MASK) | (map[(entry & HANDLE_MASK) - 1]! + 1);
    }
  }

  idOf(handle: number): string {
    const keys = this.#keys;
    const k = 3 * handle;
    if (this.#isHexHandle(handle)) return hexOf(keys[k]!) + hexOf(keys[k + 1]!) + hexOf(keys[k + 2]!);
    // A view read as latin1, not String.fromCharCode(...bytes): spreading the bytes as arguments
    // cost a microsecond an id, which a checkpoint pays for every player it saves.
    const bytes = this.#bytes;
    return Buffer.from(bytes.buffer, bytes.byteOffset + keys[k]!, keys[k + 1]).toString('latin1');
  }

  /** The slot holding `id`, or the empty slot where it belongs. */
  #find(id: string, hash: number): number {
    const slots = this.#slots;
    const capacity = slots.length;
    const tag = hash & TAG_MASK;
    let slot = home(hash, capacity);
    if (this.#isHex) {
      // The common case, kept apart so that the probe compares three words and nothing else.
      const keys = this.#keys;
      const w0 = this.#w0;
      const w1 = this.#w1;
      const w2 = this.#w2;
      for (; ; slot = slot + 1 === capacity ? 0 : slot + 1) {
        const entry = slots[slot]!;
        if (entry === EMPTY) return slot;
        if (entry >>> HANDLE_BITS !== tag) continue;
        const handle = (entry & HANDLE_MASK) - 1;
        const k = 3 * handle;
        // The words first: a non-hex id's words (offset, length, 0) could equal them, so the hex
        // bit decides only once they match, and only when such an id exists.
        if (
          keys[k] === w0 &&
          keys[k + 1] === w1 &&
          keys[k + 2] === w2 &&
          (this.#others === 0 || this.#isHexHandle(handle))
        )
          return slot;
      }
    }
    for (; ; slot = slot + 1 === capacity ? 0 : slot + 1) {
      const entry = slots[slot]!;
      if (entry === EMPTY) return slot;
      if (entry >>> HANDLE_BITS === tag && this.#equalsBytes((entry & HANDLE_MASK) - 1, id)) return slot;
    }
  }

  /** Reads `id` into #isHex/#w0..#w2 and returns its hash. */
  #parse(id: string): number {
    this.#isHex = id.length === HEX_LENGTH && parseHex(id);
    if (this.#isHex) {
      this.#w0 = WORDS[0]!;
      this.#w1 = WORDS[1]!;
      this.#w2 = WORDS[2]!;
      return hashWords(this.#w0, this.#w1, this.#w2);
    }
    let h = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    return mix32(h);
  }

  #isHexHandle(handle: number): boolean {
    return (this.#hex[handle >>> 5]! & (1 << (handle & 31))) !== 0;
  }

  /** Whether `handle` holds `id`, a key that is not packed hex. */
  #equalsBytes(handle: number, id: string): boolean {
    const keys = this.#keys;
    const k = 3 * handle;
    if (this.#isHexHandle(handle) || keys[k + 1] !== id.length) return false;
    const start = keys[k]!;
    for (let i = 0; i < id.length; i++) if (this.#bytes[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  #append(id: string, growth: number): number {
    if (id.length === 0 || id.length > 255)
      throw new RangeError(`user id length ${id.length} is outside 1..255`);
    const handle = this.#count;
    if (handle >= MAX_PLAYERS)
      throw new RangeError(`a ranking holds at most ${MAX_PLAYERS} players: partition it`);
    this.#keys = grown(this.#keys, 3 * (handle + 1), growth);
    this.#hex = grown(this.#hex, (handle >>> 5) + 1, growth);
    const k = 3 * handle;
    if (this.#isHex) {
      this.#keys[k] = this.#w0;
      this.#keys[k + 1] = this.#w1;
      this.#keys[k + 2] = this.#w2;
      this.#hex[handle >>> 5]! |= 1 << (handle & 31);
    } else {
      if (this.#used + id.length > MAX_ARENA_BYTES)
        throw new RangeError('user id arena is full (4 GiB): partition the leaderboard');
      this.#bytes = grown(this.#bytes, this.#used + id.length, growth);
      for (let i = 0; i < id.length; i++) this.#bytes[this.#used + i] = id.charCodeAt(i);
      this.#keys[k] = this.#used;
      this.#keys[k + 1] = id.length;
      this.#used += id.length;
      this.#others++;
    }
    this.#count++;
    return handle;
  }

  #hashOf(handle: number): number {
    const keys = this.#keys;
    const k = 3 * handle;
    if (this.#isHexHandle(handle)) return hashWords(keys[k]!, keys[k + 1]!, keys[k + 2]!);
    let h = 0x811c9dc5;
    const start = keys[k]!;
    const end = start + keys[k + 1]!;
    for (let i = start; i < end; i++) h = Math.imul(h ^ this.#bytes[i]!, 0x01000193);
    return mix32(h);
  }

  /**
   * Moves every handle into a table of `capacity` slots. Inserted in handle order, each insert
   * writes a slot at random: a cache and TLB miss per player, most of a replay's time at scale.
   * So a large table is filled in order of home slot instead: the handles are first bucketed by
   * the top bits of their hash (a counting sort: one write stream per bucket, which stay cached),
   * then each bucket's inserts land in its own small stretch of the table.
   */
  #rehash(capacity: number): void {
    const count = this.#count;
    const slots = new Int32Array(capacity);
    if (count < SORTED_REHASH_FROM) {
      for (let handle = 0; handle < count; handle++) insert(slots, this.#hashOf(handle), handle);
      this.#slots = slots;
      return;
    }
    // Each key is hashed once (a hex key is three mix32 rounds): kept by handle for the bucketing.
    const byHandle = new Uint32Array(count);
    const starts = new Int32Array(REHASH_BUCKETS + 1);
    for (let handle = 0; handle < count; handle++) {
      const hash = this.#hashOf(handle);
      byHandle[handle] = hash;
      starts[(hash >>> REHASH_SHIFT) + 1]!++;
    }
    for (let bucket = 1; bucket <= REHASH_BUCKETS; bucket++) starts[bucket]! += starts[bucket - 1]!;
    const handles = new Int32Array(count);
    const hashes = new Uint32Array(count);
    for (let handle = 0; handle < count; handle++) {
      const hash = byHandle[handle]!;
      const at = starts[hash >>> REHASH_SHIFT]!++;
      handles[at] = handle;
      hashes[at] = hash;
    }
    for (let i = 0; i < count; i++) insert(slots, hashes[i]!, handles[i]!);
    this.#slots = slots;
  }
}

/** From this many ids a rehash buckets them by home slot first (see #rehash). */
const SORTED_REHASH_FROM = 1 << 16;
/** 2^11 buckets: their write streams (two 64-byte lines each) fit in a core's cache. */
const REHASH_SHIFT = 21;
const REHASH_BUCKETS = 1 << (32 - REHASH_SHIFT);

/** Puts `handle` in the first empty slot from its hash's home (no key is compared: it is new). */
function insert(slots: Int32Array, hash: number, handle: number): void {
  const capacity = slots.length;
  let slot = home(hash, capacity);
  while (slots[slot] !== EMPTY) slot = slot + 1 === capacity ? 0 : slot + 1;
  slots[slot] = tagged(handle, hash);
}

/** The slot a hash starts probing at: the hash scaled to the capacity (no power-of-two capacity needed). */
function home(hash: number, capacity: number): number {
  return Math.floor((hash / 4294967296) * capacity);
}

function tagged(handle: number, hash: number): number {
  return ((hash & TAG_MASK) << HANDLE_BITS) | (handle + 1);
}

function hashWords(w0: number, w1: number, w2: number): number {
  return mix32(w0 ^ mix32(w1 ^ mix32(w2 ^ 0x9e3779b9)));
}

/**
 * The byte of two lowercase hex digits by their character codes (`c1 << 7 | c2`, each below 128),
 * -1 for any other pair: one lookup per byte instead of one per digit (32 KB, stays cached).
 */
const HEX_PAIR = Int16Array.from({ length: 1 << 14 }, (_, i) => {
  const high = hexDigit(i >>> 7);
  const low = hexDigit(i & 127);
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
});

function hexDigit(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
}

/** Where parseHex leaves the three words of a hex id (no allocation per lookup). */
const WORDS = new Uint32Array(3);

/** Parses 24 lowercase hex characters into WORDS; false for any other id. */
function parseHex(id: string): boolean {
  const w0 = hexWord(id, 0);
  if (w0 < 0) return false;
  const w1 = hexWord(id, 8);
  if (w1 < 0) return false;
  const w2 = hexWord(id, 16);
  if (w2 < 0) return false;
  WORDS[0] = w0;
  WORDS[1] = w1;
  WORDS[2] = w2;
  return true;
}

/**
 * The 32 bits of 8 lowercase hex characters from `at`, as a non-negative number, or -1 when one
 * is not a hex digit. A character above 127 makes `127 - c` negative, a pair with a non-digit
 * has the value -1: either sets the sign bit of the OR, so one test rejects both.
 */
function hexWord(id: string, at: number): number {
  let word = 0;
  let bad = 0;
  for (let i = at; i < at + 8; i += 2) {
    const c1 = id.charCodeAt(i);
    const c2 = id.charCodeAt(i + 1);
    const byte = HEX_PAIR[((c1 & 127) << 7) | (c2 & 127)]!;
    bad |= byte | (127 - c1) | (127 - c2);
    word = (word << 8) | (byte & 255);
  }
  return bad < 0 ? -1 : word >>> 0;
}

const HEX_DIGITS = '0123456789abcdef';
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => HEX_DIGITS[b >>> 4]! + HEX_DIGITS[b & 15]!);

function hexOf(word: number): string {
  return (
    HEX_BYTES[word >>> 24]! +
    HEX_BYTES[(word >>> 16) & 255]! +
    HEX_BYTES[(word >>> 8) & 255]! +
    HEX_BYTES[word & 255]!
  );
}
