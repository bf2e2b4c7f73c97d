import { mix32 } from '../src/core/typed-arrays.ts';

// The ids of the core benchmark: 24-char hex ids as the HTTP layer hands them over, and other shapes.

/** A 24-character lowercase hex id, like a MongoDB ObjectId; distinct for every i < 2^32. */
export function hexId(i: number): string {
  return hex8(mix32(i)) + hex8(mix32(i ^ 0x5bd1e995)) + hex8(i);
}

function hex8(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/** Ids as the HTTP layer hands them over: flat strings out of JSON parsing (not concatenations). */
export function flat(ids: string[]): string[] {
  return JSON.parse(JSON.stringify(ids)) as string[];
}

/** Other id shapes the API allows ([A-Za-z0-9_-], 1–64 characters). */
export const ID_SHAPES: ReadonlyArray<[string, (i: number) => string]> = [
  ['24-char hex, uppercase', (i) => hexId(i).toUpperCase()],
  ['24-char, not hex (u + 23 hex)', (i) => `u${i.toString(16).padStart(23, '0')}`],
  ['short (player_<n>, 8–14 chars)', (i) => `player_${i}`],
  [
    '36-char UUID-like',
    (i) =>
      `${hexId(i).slice(0, 8)}-${hexId(i).slice(8, 12)}-4${hexId(i).slice(13, 16)}-a${hexId(i).slice(17, 20)}-${hexId(i).slice(12, 24)}`,
  ],
];
