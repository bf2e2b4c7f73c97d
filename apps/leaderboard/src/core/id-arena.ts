import { hashBytes } from './id-keys.ts';
import { grown, resized } from './typed-arrays.ts';

/** The arena's size: offsets are 32-bit words of the id table's slots. */
export const MAX_ARENA_BYTES = 0xffff_ffff;
/**
 * Room `admit` keeps free beyond the ids it reserved room for: for ids interned without being
 * admitted here (a catch-up applying wins another instance logged, a restore).
 */
export const ADMIT_HEADROOM = 1 << 20;
/**
 * How near its end the arena must be before `admit` reserves room per new id. Below it a new id
 * is let in with no lookup and no reservation (an update pays nothing for the check): one let in
 * there can still fail to be stored only if, while its win is being logged, some million other
 * new 64-character ids (64 MiB) are stored or reserved.
 */
export const RESERVE_WITHIN = 64 << 20;

/** The arena's limits: a test injects small ones instead of filling 4 GiB. */
export interface ArenaLimits {
  readonly bytes: number;
  readonly headroom: number;
  /** From `bytes - reserveWithin` on, new ids reserve their room (RESERVE_WITHIN by default). */
  readonly reserveWithin?: number;
}

/**
 * The bytes of the ids the id table does not pack as hex, one after another in one array; the
 * table's slot keeps an id's offset and length. One byte a character (ids are [A-Za-z0-9_-] at
 * the edge; a wider character is refused, never kept cut).
 */
export class IdArena {
  #bytes = new Uint8Array(1024);
  #used = 0;
  /** Bytes reserved for ids admitted and not yet appended (see `admit`). */
  #reserved = 0;
  readonly #limits: ArenaLimits;

  /** Where reserving begins: `#used + #reserved` from it on. */
  readonly #reserveFrom: number;

  constructor(limits: ArenaLimits = { bytes: MAX_ARENA_BYTES, headroom: ADMIT_HEADROOM }) {
    this.#limits = limits;
    this.#reserveFrom = limits.bytes - (limits.reserveWithin ?? RESERVE_WITHIN);
  }

  /** Whether a new id must go through `admit` (the arena is near its end); else it is let in as it is. */
  get reserving(): boolean {
    return this.#used + this.#reserved >= this.#reserveFrom;
  }

  get byteLength(): number {
    return this.#bytes.byteLength;
  }

  /**
   * Whether a new id of `length` bytes is let in, reserving its bytes if so: it fits beside the
   * ids stored, those reserved before it (let in, their wins being logged) and the headroom. So
   * however many are in flight, each one let in finds its room when it is stored.
   */
  admit(length: number): boolean {
    if (this.#used + this.#reserved + length > this.#limits.bytes - this.#limits.headroom) return false;
    this.#reserved += length;
    return true;
  }

  /** Gives back bytes `admit` reserved (their id is being stored, or its win was dropped). */
  release(length: number): void {
    this.#reserved -= length;
  }

  /** Appends `id`'s bytes; returns their offset. */
  append(id: string): number {
    const start = this.#used;
    if (start + id.length > this.#limits.bytes)
      throw new RangeError(`user id arena is full (${this.#limits.bytes} bytes): partition the leaderboard`);
    this.#bytes = grown(this.#bytes, start + id.length);
    for (let i = 0; i < id.length; i++) {
      const code = id.charCodeAt(i);
      // A byte each: a wider character would be kept cut, then never found (and interned again).
      if (code > 0xff) throw new RangeError(`user id character U+${code.toString(16)} is not one byte`);
      this.#bytes[start + i] = code;
    }
    this.#used += id.length;
    return start;
  }

  /** Whether the `length` bytes at `start` are `id`'s. */
  equals(start: number, length: number, id: string): boolean {
    if (length !== id.length) return false;
    for (let i = 0; i < length; i++) if (this.#bytes[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  hash(start: number, length: number): number {
    return hashBytes(this.#bytes, start, start + length);
  }

  text(start: number, length: number): string {
    // A view read as latin1, not String.fromCharCode(...bytes): spreading the bytes as arguments
    // cost a microsecond an id, which a checkpoint pays for every player it saves.
    const bytes = this.#bytes;
    return Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString('latin1');
  }

  /** Cuts the array to what is used. */
  trim(): void {
    this.#bytes = resized(this.#bytes, Math.max(this.#used, 1));
  }
}
