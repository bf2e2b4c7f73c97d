/**
 * Reading a compact JSON object of a few known keys straight from a body's bytes (a fast write's
 * `writeBytes`), for the services' plain bodies (a score update, a limit order). Each piece takes
 * one spelling only (no whitespace, escapes, sign, leading zero, fraction or exponent) and refuses
 * the rest, which then goes to JSON.parse: a reader built of them takes fewer spellings than
 * JSON.parse, never other values.
 */

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const OPEN = 0x7b;
export const CLOSE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;

/** Where a read is in the body, and the body's end. */
export interface BytesCursor {
  at: number;
  readonly end: number;
}

/** A cursor on the first key of `body` when it is braced, else undefined. */
export function objectCursor(body: Buffer): BytesCursor | undefined {
  const end = body.length;
  if (end < 2 || body[0] !== OPEN || body[end - 1] !== CLOSE) return undefined;
  return { at: 1, end };
}

/**
 * After a value: 'end' at the closing brace, 'next' past a comma (on the next key), 'bad' on
 * anything else.
 */
export function afterValue(body: Buffer, cursor: BytesCursor): 'end' | 'next' | 'bad' {
  if (cursor.at === cursor.end - 1) return 'end';
  if (body[cursor.at] !== COMMA) return 'bad';
  cursor.at++;
  return 'next';
}

/** Whether `text` is at the cursor (then moved past it). */
export function skipText(body: Buffer, cursor: BytesCursor, text: Uint8Array): boolean {
  const at = cursor.at;
  if (at + text.length > cursor.end || body[at + 1] !== text[1]) return false;
  for (let i = 2; i < text.length; i++) if (body[at + i] !== text[i]) return false;
  if (body[at] !== text[0]) return false;
  cursor.at = at + text.length;
  return true;
}

/** A quoted string without escapes of 1..`max` bytes, each one `taken` has (by byte); else undefined. */
export function readPlainString(
  body: Buffer,
  cursor: BytesCursor,
  max: number,
  taken: Uint8Array,
): string | undefined {
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

/**
 * A whole number from 1 in JSON's own spelling, of at most `maxDigits` digits, followed by a comma
 * or the closing brace; else 0 (the cursor then stays). Past 2^53 its value may round, but only to
 * 2^53 or more: a caller's upper bound below that refuses it all the same.
 */
export function readCount(body: Buffer, cursor: BytesCursor, maxDigits: number): number {
  const { at, end } = cursor;
  const first = body[at];
  if (first === undefined || first <= ZERO || first > NINE) return 0;
  let value = 0;
  let i = at;
  for (; i < end && i - at <= maxDigits; i++) {
    const c = body[i]!;
    if (c < ZERO || c > NINE) break;
    value = value * 10 + (c - ZERO);
  }
  // A digit run too long, or a number going on (a fraction, an exponent): JSON.parse's to read.
  const next = body[i];
  if (i - at > maxDigits || (next !== COMMA && next !== CLOSE)) return 0;
  cursor.at = i;
  return value;
}

/** The ASCII bytes a regular expression's character class takes, but those of `except` (1: taken). */
export function asciiTable(characters: string, except = ''): Uint8Array {
  const one = new RegExp(`^[${characters}]$`);
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const text = String.fromCharCode(c);
    if (one.test(text) && !except.includes(text)) table[c] = 1;
  }
  return table;
}
