/**
 * The plain limit order read straight from the body's bytes (the fast write's `writeBytes`): a
 * compact JSON object of exactly `symbol`, `side`, `price`, `orderType` and `quantity`, in any
 * order, as trading clients send it. No string for the whole body, no generic object from
 * JSON.parse. It takes exactly what plainOrder takes from JSON.parse's object, in fewer spellings:
 * whitespace, escapes, a number in another form (1.0, 1e0) or a repeated key give undefined, and
 * the body then goes to JSON.parse and plainOrder (a test compares the two readers).
 */
import type { OrderInput } from '../service.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const DOT = 0x2e;
/** 2^53 − 1 has 16 digits: a longer run is out of range, JSON.parse's and the schema's to refuse. */
const MAX_DIGITS = 16;
/** The symbol field's pattern, ^[A-Z][A-Z0-9.]{0,11}$: at most 12 characters. */
const MAX_SYMBOL = 12;

const SYMBOL = 1;
const SIDE = 2;
const PRICE = 4;
const ORDER_TYPE = 8;
const QUANTITY = 16;
const ALL = SYMBOL | SIDE | PRICE | ORDER_TYPE | QUANTITY;

const SYMBOL_KEY = Buffer.from('"symbol":', 'latin1');
const SIDE_KEY = Buffer.from('"side":', 'latin1');
const PRICE_KEY = Buffer.from('"price":', 'latin1');
const ORDER_TYPE_KEY = Buffer.from('"orderType":', 'latin1');
const QUANTITY_KEY = Buffer.from('"quantity":', 'latin1');
const BUY = Buffer.from('"buy"', 'latin1');
const SELL = Buffer.from('"sell"', 'latin1');
const LIMIT = Buffer.from('"limit"', 'latin1');

/** Where a read is in the body. */
interface Cursor {
  at: number;
}

export function plainOrderOfBytes(body: Buffer): OrderInput | undefined {
  const end = body.length;
  if (end < 2 || body[0] !== OPEN || body[end - 1] !== CLOSE) return undefined;
  const cursor: Cursor = { at: 1 };
  let seen = 0;
  let symbol = '';
  let side: 'buy' | 'sell' = 'buy';
  let price = 0;
  let quantity = 0;
  for (;;) {
    const key = readKey(body, cursor);
    // A repeated key (JSON.parse keeps the last) is left to JSON.parse; a value refused ends the read.
    if (key === 0 || (seen & key) !== 0) return undefined;
    seen |= key;
    if (key === SYMBOL) {
      const read = readSymbol(body, cursor);
      if (read === undefined) return undefined;
      symbol = read;
    } else if (key === SIDE) {
      if (skip(body, cursor, BUY)) side = 'buy';
      else if (skip(body, cursor, SELL)) side = 'sell';
      else return undefined;
    } else if (key === ORDER_TYPE) {
      // A market order goes to the full route, which says why it is refused.
      if (!skip(body, cursor, LIMIT)) return undefined;
    } else {
      const count = readCount(body, cursor, end);
      if (count === 0) return undefined;
      if (key === PRICE) price = count;
      else quantity = count;
    }
    if (cursor.at === end - 1) break;
    if (body[cursor.at] !== COMMA) return undefined;
    cursor.at++;
  }
  if (seen !== ALL) return undefined;
  return { symbol, side, price, orderType: 'limit', quantity };
}

/** The key at the cursor with its colon (moving past them), or 0 for any other. */
function readKey(body: Buffer, cursor: Cursor): number {
  // Told apart by their first letters, then compared whole.
  switch (body[cursor.at + 1]) {
    case 0x73: // s
      if (body[cursor.at + 2] === 0x79) return skip(body, cursor, SYMBOL_KEY) ? SYMBOL : 0;
      return skip(body, cursor, SIDE_KEY) ? SIDE : 0;
    case 0x70: // p
      return skip(body, cursor, PRICE_KEY) ? PRICE : 0;
    case 0x6f: // o
      return skip(body, cursor, ORDER_TYPE_KEY) ? ORDER_TYPE : 0;
    case 0x71: // q
      return skip(body, cursor, QUANTITY_KEY) ? QUANTITY : 0;
    default:
      return 0;
  }
}

/** Whether `text` is at the cursor (then moved past it). */
function skip(body: Buffer, cursor: Cursor, text: Buffer): boolean {
  const at = cursor.at;
  if (at + text.length > body.length || body[at + 1] !== text[1]) return false;
  for (let i = 2; i < text.length; i++) if (body[at + i] !== text[i]) return false;
  if (body[at] !== text[0]) return false;
  cursor.at = at + text.length;
  return true;
}

/** A quoted symbol as the schema's pattern takes it, [A-Z][A-Z0-9.]{0,11}; else undefined. */
function readSymbol(body: Buffer, cursor: Cursor): string | undefined {
  const at = cursor.at;
  if (body[at] !== QUOTE) return undefined;
  const first = body[at + 1];
  if (first === undefined || first < UPPER_A || first > UPPER_Z) return undefined;
  let i = at + 2;
  for (; i < body.length; i++) {
    const c = body[i]!;
    if (c === QUOTE) break;
    if (!((c >= UPPER_A && c <= UPPER_Z) || (c >= ZERO && c <= NINE) || c === DOT)) return undefined;
  }
  if (i === body.length || i - at - 1 > MAX_SYMBOL) return undefined;
  cursor.at = i + 1;
  return body.toString('latin1', at + 1, i);
}

/**
 * An integer 1..2^53−1 in JSON's own spelling (no sign, leading zero, fraction or exponent),
 * followed by a comma or the closing brace; else 0. Past 2^53 a sum may round, but only to 2^53
 * or more, which is refused all the same.
 */
function readCount(body: Buffer, cursor: Cursor, end: number): number {
  const at = cursor.at;
  const first = body[at];
  if (first === undefined || first <= ZERO || first > NINE) return 0;
  let value = 0;
  let i = at;
  for (; i < end; i++) {
    const c = body[i]!;
    if (c < ZERO || c > NINE) break;
    value = value * 10 + (c - ZERO);
  }
  const next = body[i];
  if (i - at > MAX_DIGITS || (next !== COMMA && next !== CLOSE) || value > Number.MAX_SAFE_INTEGER) return 0;
  cursor.at = i;
  return value;
}
