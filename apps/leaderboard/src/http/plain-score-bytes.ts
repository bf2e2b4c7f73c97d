/**
 * The plain score update read straight from the body's bytes (the fast write's `writeBytes`): a
 * compact JSON object of `user_id`, `points` and, optionally, `match_id`, in any order, as game
 * servers send it. No string for the whole body, no generic object, no regular expression per
 * update. It takes exactly what plainScore takes from JSON.parse's object, in fewer spellings:
 * whitespace, escapes, a number in another form (1.0, 1e0) or a repeated key give undefined, and
 * the body then goes to JSON.parse and plainScore (a test compares the two readers).
 */
import {
  asciiTable,
  MATCH_ID_CHARACTERS,
  MATCH_ID_MAX_LENGTH,
  USER_ID_CHARACTERS,
  USER_ID_MAX_LENGTH,
} from './id-rules.ts';
import type { PlainScore } from './plain-score.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;
/** Longer digit runs are left to JSON.parse (a points limit is far below 10^15). */
const MAX_DIGITS = 15;

/** A user id's characters, by byte. */
const USER_ID_BYTES = asciiTable(USER_ID_CHARACTERS);
/** A match id's characters but the quote and the backslash, which a JSON string escapes, by byte. */
const MATCH_ID_BYTES = asciiTable(MATCH_ID_CHARACTERS, '"\\');

/** Where a read is in the body, and the body's end. */
interface Cursor {
  at: number;
  readonly end: number;
}

export function plainScoreOfBytes(body: Buffer, maxPoints: number): PlainScore | undefined {
  const end = body.length;
  if (end < 2 || body[0] !== OPEN || body[end - 1] !== CLOSE) return undefined;
  const cursor: Cursor = { at: 1, end };
  let userId: string | undefined;
  let points: number | undefined;
  let matchId: string | undefined;
  for (;;) {
    const key = readKey(body, cursor);
    // A value refused ends the read: the cursor stays on it, and one that is missing (`"points":,`) would
    // otherwise pass for the comma or brace after it.
    if (key === USER_ID && userId === undefined) {
      if ((userId = readString(body, cursor, USER_ID_MAX_LENGTH, USER_ID_BYTES)) === undefined)
        return undefined;
    } else if (key === POINTS && points === undefined) {
      if ((points = readPoints(body, cursor, maxPoints)) === undefined) return undefined;
    } else if (key === MATCH_ID && matchId === undefined) {
      if ((matchId = readString(body, cursor, MATCH_ID_MAX_LENGTH, MATCH_ID_BYTES)) === undefined)
        return undefined;
    } else return undefined;
    if (cursor.at === end - 1) break;
    if (body[cursor.at] !== COMMA) return undefined;
    cursor.at++;
  }
  if (userId === undefined || points === undefined) return undefined;
  return matchId === undefined ? { userId, points } : { userId, points, matchId };
}

const USER_ID = 1;
const POINTS = 2;
const MATCH_ID = 3;
const KEYS: ReadonlyArray<readonly [number, Buffer]> = [
  [USER_ID, Buffer.from('"user_id":', 'latin1')],
  [POINTS, Buffer.from('"points":', 'latin1')],
  [MATCH_ID, Buffer.from('"match_id":', 'latin1')],
];

/** The key at the cursor with its colon (moving past them), or 0 for any other. */
function readKey(body: Buffer, cursor: Cursor): number {
  const { at, end } = cursor;
  for (const [key, text] of KEYS) {
    if (at + text.length > end || body[at + 1] !== text[1]) continue;
    let i = 0;
    while (i < text.length && body[at + i] === text[i]) i++;
    if (i < text.length) return 0;
    cursor.at = at + text.length;
    return key;
  }
  return 0;
}

/** A string without escapes of 1..`max` bytes, each one `taken` has. Undefined otherwise. */
function readString(body: Buffer, cursor: Cursor, max: number, taken: Uint8Array): string | undefined {
  const { at, end } = cursor;
  if (body[at] !== QUOTE) return undefined;
  const from = at + 1;
  let i = from;
  for (; i < end; i++) {
    const c = body[i]!;
    if (c === QUOTE) break;
    if (c >= 128 || taken[c] === 0) return undefined;
  }
  const length = i - from;
  if (i === end || length === 0 || length > max) return undefined;
  cursor.at = i + 1;
  return body.toString('latin1', from, i);
}

/** An integer 1..maxPoints in JSON's own spelling (no leading zero, sign, fraction or exponent). */
function readPoints(body: Buffer, cursor: Cursor, maxPoints: number): number | undefined {
  const { at, end } = cursor;
  const first = body[at];
  if (first === undefined || first <= ZERO || first > NINE) return undefined;
  let value = 0;
  let i = at;
  for (; i < end && i - at <= MAX_DIGITS; i++) {
    const c = body[i]!;
    if (c < ZERO || c > NINE) break;
    value = value * 10 + (c - ZERO);
  }
  // A digit run too long, or a number going on (a fraction, an exponent): JSON.parse's to read.
  const next = body[i];
  if (i - at > MAX_DIGITS || (next !== COMMA && next !== CLOSE)) return undefined;
  if (value > maxPoints) return undefined;
  cursor.at = i;
  return value;
}
