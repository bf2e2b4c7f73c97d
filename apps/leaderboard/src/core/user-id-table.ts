import type { Admission } from './admission.ts';
import { AdmittedIds } from './admitted-ids.ts';
import { type ArenaLimits, IdArena } from './id-arena.ts';
import { hashString, hashWords, hexOf, home, parseHex, WORDS } from './id-keys.ts';
import type { KeyBatch } from './key-batch.ts';
import { rehashed } from './slot-rehash.ts';
import { keyOf, SlotWords } from './slot-words.ts';

/** Most of a table's slots in use before it grows: past it linear probes get long. */
const MAX_LOAD = 0.85;
/**
 * The load a table sized for a known count (`reserve`, `trim`) starts at: room for 1 % more. Every
 * per-player byte of the table and of the columns keyed by slot costs 1 / load, so at 25 M hex
 * players the ranking holds (12 + 4 + 2 + 0.25) / load + 4 bytes a player: 25.7 at this load.
 */
const SIZED_LOAD = 0.84;
/**
 * Growth when full in running: from MAX_LOAD to 0.77 (27.6 bytes a player at worst, where 1.25
 * would leave 0.68 and 30.8). A replay passes more (see `intern`).
 */
export const TABLE_GROWTH = 1.1;
const HEX_LENGTH = 24;
const FIRST_CAPACITY = 2048;

/** Called after a rehash: the id in old slot s is now in `map[s]` (-1 for an empty slot). */
export type OnMove = (map: Int32Array, capacity: number) => void;

/**
 * Interns user ids as integer handles and gives them back, all in typed arrays. A handle is the
 * id's slot in an open-addressing table (issue #15: one probe finds the player, and the ranking's
 * columns are indexed by the same number, so no second random access maps a slot to a handle).
 * Handles are therefore sparse (0 … capacity - 1) and a growth of the table moves them: the
 * table tells its owner through `onMove`, with the map from old to new slots.
 *
 * Why not `Map<string, number>`: V8 caps a Map at 2^24 entries (16.7 M) while a month of the spec
 * holds 25 M players, and 25 M heap strings would make every full GC mark 25 M objects.
 *
 * Each slot owns three 32-bit key words (and the player's block id: SlotWords). A 24-character
 * lowercase hex id (a MongoDB ObjectId for one) is stored in them as its 96 bits, 12 bytes; any
 * other id ([A-Za-z0-9_-], validated at the edge) keeps its bytes in an arena and the words hold
 * the offset and length (never 0). Three zero words mark an empty slot, so the all-zero hex id is
 * kept as bytes. No hash or tag is stored: a probe compares the key words, which linear probing
 * keeps in the few cache lines it reads anyway; a rehash recomputes the hash from the key.
 *
 * No count limit of its own for hex ids: handles are Int32 slot numbers (2^31), and memory runs
 * out long before (26 bytes a player: 56 GB there). Other ids keep their bytes in one arena of at
 * most 4 GiB (IdArena): about 67 M players of 64 characters, beyond the spec's 25 M a month. Past
 * it `admits` refuses a new player, which the service asks before the win is logged.
 */
export class UserIdTable {
  /**
   * Three key words a slot (the packed hex id, or [arena offset, length, 0]; all 0 when empty) and
   * beside them the slot's block id in the rank order (see SlotWords).
   */
  readonly #slots = new SlotWords(FIRST_CAPACITY);
  /** One bit per slot: set when the id is packed hex. */
  #hex = new Uint32Array(FIRST_CAPACITY >>> 5);
  readonly #arena: IdArena;
  readonly #admitted: AdmittedIds;
  #capacity = FIRST_CAPACITY;
  #count = 0;
  /** Ids kept as bytes: while none is, a probe need not read the hex bit (a miss of its own at scale). */
  #others = 0;
  readonly #onMove: OnMove;
  // The key being looked up, parsed once (hex words or not).
  #isHex = false;
  #w0 = 0;
  #w1 = 0;
  #w2 = 0;

  /** `arena`: the limits of the non-hex ids' bytes (a test makes them small). */
  constructor(onMove: OnMove = () => {}, arena?: ArenaLimits) {
    this.#onMove = onMove;
    this.#arena = new IdArena(arena);
    this.#admitted = new AdmittedIds(this.#arena);
  }

  get size(): number {
    return this.#count;
  }

  /** Slots: every handle is below it. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Bytes held by the table's arrays (capacity, not just what is used). */
  get byteLength(): number {
    return this.#slots.words.byteLength + this.#hex.byteLength + this.#arena.byteLength;
  }

  /** Each slot's block id in the rank order, kept in the slot (see SlotWords). */
  get blockIds(): SlotWords {
    return this.#slots;
  }

  /** The handle of `id`, or -1 when it was never interned. */
  handleOf(id: string): number {
    const slot = this.#find(id, this.#parse(id));
    return this.#isEmpty(slot) ? -1 : slot;
  }

  /**
   * Whether `id` can be interned (see Admission): always for a packed hex id or a known one; a new
   * one kept as bytes only while the arena has room. Asked before every win is logged, so it looks
   * nothing up until the arena is near its end (IdArena.reserving); from there a new id's room is
   * reserved until it is stored or `dropAdmitted` (see AdmittedIds).
   */
  admits(id: string): Admission {
    if (!this.#arena.reserving) return 'admitted';
    const hash = this.#parse(id);
    if (this.#isHex || !this.#isEmpty(this.#find(id, hash))) return 'admitted';
    return this.#admitted.admit(id) ? 'reserved' : 'refused';
  }

  /** A win of `id` that `admits` let in will not be applied (it was not logged): its room goes back. */
  dropAdmitted(id: string): void {
    this.#admitted.dropped(id);
  }

  /**
   * The handle of `id`, adding it when new (`size` then grows by one). `growth`: how much the table
   * grows when full; a caller adding millions at once (a replay) passes more than TABLE_GROWTH, since
   * each growth rewrites every slot at random, and trims the table when done. A growth moves
   * every handle (see `onMove`); the handle returned is the new one.
   */
  intern(id: string, growth = TABLE_GROWTH): number {
    return this.#interned(id, this.#parse(id), growth);
  }

  /** Parses `id` into `keys` at `at`: the first phase of a batch (see KeyBatch). */
  prepare(id: string, keys: KeyBatch, at: number): void {
    keys.hashes[at] = this.#parse(id);
    keys.hex[at] = this.#isHex ? 1 : 0;
    keys.words[3 * at] = this.#w0;
    keys.words[3 * at + 1] = this.#w1;
    keys.words[3 * at + 2] = this.#w2;
  }

  /**
   * Reads the home slot of the first `n` prepared keys, keeping it in `keys.homes`: one loop of
   * independent loads, so their misses overlap. Returns what was read, for the caller to keep
   * (a load whose value nobody uses may be dropped).
   */
  touch(keys: KeyBatch, n: number): number {
    const words = this.#slots.words;
    const hex = this.#hex;
    const capacity = this.#capacity;
    let read = 0;
    for (let i = 0; i < n; i++) {
      const slot = home(keys.hashes[i]!, capacity);
      keys.homes[i] = slot;
      // A slot's 16 bytes straddle two cache lines one time in four: both ends are read. Its hex
      // bit is written when the id is new.
      const k = keyOf(slot);
      read ^= words[k]! ^ words[k + 3]! ^ hex[slot >>> 5]!;
    }
    return read ^ this.#slots.touch(keys.homes, n);
  }

  /** `intern` of the id `prepare` put at `at` in `keys`, without parsing it again. */
  internPrepared(id: string, keys: KeyBatch, at: number, growth = TABLE_GROWTH): number {
    this.#isHex = keys.hex[at] === 1;
    this.#w0 = keys.words[3 * at]!;
    this.#w1 = keys.words[3 * at + 1]!;
    this.#w2 = keys.words[3 * at + 2]!;
    return this.#interned(id, keys.hashes[at]!, growth);
  }

  /** The handle of the id parsed into #isHex/#w0..#w2 (`hash` its hash), added when new. */
  #interned(id: string, hash: number, growth: number): number {
    const slot = this.#find(id, hash);
    if (!this.#isEmpty(slot)) return slot;
    this.#store(slot, id);
    if (this.#count <= this.#capacity * MAX_LOAD) return slot;
    return this.#rehash(Math.ceil(this.#capacity * growth))[slot]!;
  }

  /**
   * Makes room for `players` ids in all (hex ones; others also take their bytes in the arena),
   * so that interning up to that many does not rehash.
   */
  reserve(players: number): void {
    if (players > this.#capacity * MAX_LOAD) this.#rehash(Math.ceil(players / SIZED_LOAD));
  }

  /**
   * Gives back the unused capacity: the arena cut to what is used, the slots rehashed to
   * SIZED_LOAD when below what one running growth would leave (MAX_LOAD / TABLE_GROWTH): a replay's
   * growth by 2 leaves 0.43–0.85, and at 25 M players 0.75 (2^25 slots), 28.5 bytes a player.
   */
  trim(): void {
    const count = this.#count;
    this.#arena.trim();
    const sized = Math.ceil(count / SIZED_LOAD) + 1;
    if (count < this.#capacity * (MAX_LOAD / TABLE_GROWTH) && sized < this.#capacity) this.#rehash(sized);
  }

  /**
   * For tests: rehashes into one slot more or one fewer, which moves most handles as a growth
   * does, without growing the table over and over.
   */
  moveForTest(): void {
    const fewer = this.#capacity - 1;
    this.#rehash(this.#capacity % 2 === 1 && this.#count < fewer * MAX_LOAD ? fewer : this.#capacity + 1);
  }

  idOf(handle: number): string {
    const keys = this.#slots.words;
    const k = keyOf(handle);
    if (this.#isHexSlot(handle)) return hexOf(keys[k]!) + hexOf(keys[k + 1]!) + hexOf(keys[k + 2]!);
    return this.#arena.text(keys[k]!, keys[k + 1]!);
  }

  #isEmpty(slot: number): boolean {
    const keys = this.#slots.words;
    const k = keyOf(slot);
    return (keys[k]! | keys[k + 1]! | keys[k + 2]!) === 0;
  }

  /** The slot holding `id`, or the empty slot where it belongs. */
  #find(id: string, hash: number): number {
    const keys = this.#slots.words;
    const capacity = this.#capacity;
    let slot = home(hash, capacity);
    if (this.#isHex) {
      // The common case, kept apart so that the probe compares three words and nothing else.
      const w0 = this.#w0;
      const w1 = this.#w1;
      const w2 = this.#w2;
      for (; ; slot = slot + 1 === capacity ? 0 : slot + 1) {
        const k = keyOf(slot);
        const a = keys[k]!;
        const b = keys[k + 1]!;
        const c = keys[k + 2]!;
        // A hex key is never three zeros, so a match is never an empty slot. A non-hex id's words
        // (offset, length, 0) could equal it: the hex bit decides, and only when such an id exists.
        if (a === w0 && b === w1 && c === w2 && (this.#others === 0 || this.#isHexSlot(slot))) return slot;
        if ((a | b | c) === 0) return slot;
      }
    }
    for (; ; slot = slot + 1 === capacity ? 0 : slot + 1) {
      if (this.#isEmpty(slot) || this.#equalsBytes(slot, id)) return slot;
    }
  }

  /** Reads `id` into #isHex/#w0..#w2 and returns its hash. */
  #parse(id: string): number {
    // Three zero words mark an empty slot: the all-zero hex id is kept as bytes.
    this.#isHex = id.length === HEX_LENGTH && parseHex(id) && (WORDS[0]! | WORDS[1]! | WORDS[2]!) !== 0;
    if (this.#isHex) {
      this.#w0 = WORDS[0]!;
      this.#w1 = WORDS[1]!;
      this.#w2 = WORDS[2]!;
      return hashWords(this.#w0, this.#w1, this.#w2);
    }
    return hashString(id);
  }

  #isHexSlot(slot: number): boolean {
    return (this.#hex[slot >>> 5]! & (1 << (slot & 31))) !== 0;
  }

  /** Whether `slot` holds `id`, a key that is not packed hex. */
  #equalsBytes(slot: number, id: string): boolean {
    const keys = this.#slots.words;
    const k = keyOf(slot);
    return !this.#isHexSlot(slot) && this.#arena.equals(keys[k]!, keys[k + 1]!, id);
  }

  /** Writes the parsed `id` into the empty `slot`. */
  #store(slot: number, id: string): void {
    if (id.length === 0 || id.length > 255)
      throw new RangeError(`user id length ${id.length} is outside 1..255`);
    const k = keyOf(slot);
    const keys = this.#slots.words;
    if (this.#isHex) {
      keys[k] = this.#w0;
      keys[k + 1] = this.#w1;
      keys[k + 2] = this.#w2;
      this.#hex[slot >>> 5]! |= 1 << (slot & 31);
    } else {
      this.#admitted.stored(id);
      keys[k] = this.#arena.append(id);
      keys[k + 1] = id.length;
      this.#others++;
    }
    this.#count++;
  }

  #hashOf(slot: number): number {
    const keys = this.#slots.words;
    const k = keyOf(slot);
    if (this.#isHexSlot(slot)) return hashWords(keys[k]!, keys[k + 1]!, keys[k + 2]!);
    return this.#arena.hash(keys[k]!, keys[k + 1]!);
  }

  /** Moves every id into `capacity` slots (see `rehashed`), tells the owner and returns the map. */
  #rehash(capacity: number): Int32Array {
    const hashOf = (slot: number): number => this.#hashOf(slot);
    const { words, hex, map } = rehashed(
      this.#slots.words,
      this.#hex,
      this.#capacity,
      this.#count,
      capacity,
      hashOf,
    );
    this.#slots.replace(words, capacity, map);
    this.#hex = hex;
    this.#capacity = capacity;
    this.#onMove(map, capacity);
    return map;
  }
}
