import { mix32 } from './typed-arrays.ts';

/**
 * How the id table reads a key: the 96 bits of a 24-character lowercase hex id, the hash of any
 * key, and the way back from the bits to the id. Kept apart from the table: the probe and the
 * growth are one concern, the id's bytes another.
 */

/** The slot a hash starts probing at: the hash scaled to the capacity (no power-of-two capacity needed). */
export function home(hash: number, capacity: number): number {
  return Math.floor((hash / 4294967296) * capacity);
}

export function hashWords(w0: number, w1: number, w2: number): number {
  return mix32(w0 ^ mix32(w1 ^ mix32(w2 ^ 0x9e3779b9)));
}

/** The hash of a key kept as bytes (FNV-1a, mixed): from the id, or from its bytes in the arena. */
export function hashString(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return mix32(h);
}

export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return mix32(h);
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
export const WORDS = new Uint32Array(3);

/** Parses 24 lowercase hex characters into WORDS; false for any other id. */
export function parseHex(id: string): boolean {
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

export function hexOf(word: number): string {
  return (
    HEX_BYTES[word >>> 24]! +
    HEX_BYTES[(word >>> 16) & 255]! +
    HEX_BYTES[(word >>> 8) & 255]! +
    HEX_BYTES[word & 255]!
  );
}
