/**
 * The plain limit order read straight from the body's bytes (the fast write's `writeBytes`): a
 * compact JSON object of exactly `symbol`, `side`, `price`, `orderType` and `quantity`, in any
 * order, as trading clients send it. No string for the whole body, no generic object from
 * JSON.parse. It takes exactly what plainOrder takes from JSON.parse's object, in fewer spellings:
 * whitespace, escapes, a number in another form (1.0, 1e0) or a repeated key give undefined, and
 * the body then goes to JSON.parse and plainOrder (a test compares the two readers).
 */
import { afterValue, asciiTable, objectCursor, readCount, readPlainString, skipText } from '@tessera/kit';
import type { BytesCursor } from '@tessera/kit';
import type { OrderInput } from '../service.ts';

/** 2^53 − 1 has 16 digits: a longer run is out of range, JSON.parse's and the schema's to refuse. */
const MAX_DIGITS = 16;
/** The symbol field's pattern, ^[A-Z][A-Z0-9.]{0,11}$: at most 12 characters. */
const MAX_SYMBOL = 12;
const SYMBOL_BYTES = asciiTable('A-Z0-9.');
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;

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

export function plainOrderOfBytes(body: Buffer): OrderInput | undefined {
  const cursor = objectCursor(body);
  if (cursor === undefined) return undefined;
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
      if (skipText(body, cursor, BUY)) side = 'buy';
      else if (skipText(body, cursor, SELL)) side = 'sell';
      else return undefined;
    } else if (key === ORDER_TYPE) {
      // A market order goes to the full route, which says why it is refused.
      if (!skipText(body, cursor, LIMIT)) return undefined;
    } else {
      const count = readCount(body, cursor, MAX_DIGITS);
      if (count === 0 || count > Number.MAX_SAFE_INTEGER) return undefined;
      if (key === PRICE) price = count;
      else quantity = count;
    }
    const after = afterValue(body, cursor);
    if (after === 'end') break;
    if (after === 'bad') return undefined;
  }
  if (seen !== ALL) return undefined;
  return { symbol, side, price, orderType: 'limit', quantity };
}

/** The key at the cursor with its colon (moving past them), or 0 for any other. */
function readKey(body: Buffer, cursor: BytesCursor): number {
  // Told apart by their first letters, then compared whole.
  switch (body[cursor.at + 1]) {
    case 0x73: // s
      if (body[cursor.at + 2] === 0x79) return skipText(body, cursor, SYMBOL_KEY) ? SYMBOL : 0;
      return skipText(body, cursor, SIDE_KEY) ? SIDE : 0;
    case 0x70: // p
      return skipText(body, cursor, PRICE_KEY) ? PRICE : 0;
    case 0x6f: // o
      return skipText(body, cursor, ORDER_TYPE_KEY) ? ORDER_TYPE : 0;
    case 0x71: // q
      return skipText(body, cursor, QUANTITY_KEY) ? QUANTITY : 0;
    default:
      return 0;
  }
}

/** A quoted symbol as the schema's pattern takes it, [A-Z][A-Z0-9.]{0,11}; else undefined. */
function readSymbol(body: Buffer, cursor: BytesCursor): string | undefined {
  const first = body[cursor.at + 1];
  if (first === undefined || first < UPPER_A || first > UPPER_Z) return undefined;
  return readPlainString(body, cursor, MAX_SYMBOL, SYMBOL_BYTES);
}
