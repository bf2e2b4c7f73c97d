/**
 * The plain score update read straight from the body's bytes (the fast write's `writeBytes`): a
 * compact JSON object of `user_id`, `points` and, optionally, `match_id`, in any order, as game
 * servers send it. No string for the whole body, no generic object, no regular expression per
 * update. It takes exactly what plainScore takes from JSON.parse's object, in fewer spellings:
 * whitespace, escapes, a number in another form (1.0, 1e0) or a repeated key give undefined, and
 * the body then goes to JSON.parse and plainScore (a test compares the two readers).
 */
import {
  afterValue,
  asciiTable,
  type BytesCursor,
  objectCursor,
  readCount,
  readPlainString,
  skipText,
} from '@tessera/kit';
import {
  MATCH_ID_CHARACTERS,
  MATCH_ID_MAX_LENGTH,
  USER_ID_CHARACTERS,
  USER_ID_MAX_LENGTH,
} from './id-rules.ts';
import type { PlainScore } from './plain-score.ts';

/** Longer digit runs are left to JSON.parse (a points limit is far below 10^15). */
const MAX_DIGITS = 15;

/** A user id's characters, by byte. */
const USER_ID_BYTES = asciiTable(USER_ID_CHARACTERS);
/** A match id's characters but the quote and the backslash, which a JSON string escapes, by byte. */
const MATCH_ID_BYTES = asciiTable(MATCH_ID_CHARACTERS, '"\\');

const USER_ID_KEY = Buffer.from('"user_id":', 'latin1');
const POINTS_KEY = Buffer.from('"points":', 'latin1');
const MATCH_ID_KEY = Buffer.from('"match_id":', 'latin1');

export function plainScoreOfBytes(body: Buffer, maxPoints: number): PlainScore | undefined {
  const cursor = objectCursor(body);
  if (cursor === undefined) return undefined;
  let userId: string | undefined;
  let points: number | undefined;
  let matchId: string | undefined;
  for (;;) {
    // A value refused ends the read: the cursor stays on it, and one that is missing (`"points":,`) would
    // otherwise pass for the comma or brace after it. A repeated key is left to JSON.parse.
    if (userId === undefined && skipText(body, cursor, USER_ID_KEY)) {
      if ((userId = readPlainString(body, cursor, USER_ID_MAX_LENGTH, USER_ID_BYTES)) === undefined)
        return undefined;
    } else if (points === undefined && skipText(body, cursor, POINTS_KEY)) {
      if ((points = readPoints(body, cursor, maxPoints)) === undefined) return undefined;
    } else if (matchId === undefined && skipText(body, cursor, MATCH_ID_KEY)) {
      if ((matchId = readPlainString(body, cursor, MATCH_ID_MAX_LENGTH, MATCH_ID_BYTES)) === undefined)
        return undefined;
    } else return undefined;
    const after = afterValue(body, cursor);
    if (after === 'end') break;
    if (after === 'bad') return undefined;
  }
  if (userId === undefined || points === undefined) return undefined;
  return matchId === undefined ? { userId, points } : { userId, points, matchId };
}

/** An integer 1..maxPoints in JSON's own spelling; else undefined. */
function readPoints(body: Buffer, cursor: BytesCursor, maxPoints: number): number | undefined {
  const value = readCount(body, cursor, MAX_DIGITS);
  return value === 0 || value > maxPoints ? undefined : value;
}
