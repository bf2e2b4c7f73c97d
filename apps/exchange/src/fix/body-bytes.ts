/**
 * A message body written as bytes, field by field, into one buffer reused for each message: the
 * ExecutionReports of the FIX order path (two per order) are built with no string per field or
 * per number, and framed from these bytes (frame-writer.ts). Values are ASCII/latin1, as
 * everywhere in the codec: a character is its low byte.
 */

/** A body already encoded: its first `length` bytes. */
export interface EncodedBody {
  readonly bytes: Buffer;
  readonly length: number;
  /** The sum of those bytes, when known (the frame's checksum then need not read them again). */
  readonly sum?: number;
}

/** A body as text, whichever form it came in (the tests' fake sessions read it so). */
export function bodyText(body: string | EncodedBody): string {
  return typeof body === 'string' ? body : body.bytes.toString('latin1', 0, body.length);
}

export class BodyBytes implements EncodedBody {
  bytes = Buffer.allocUnsafe(1024);
  length = 0;
  /** The sum of the bytes written, kept as they are written. */
  sum = 0;

  /** Starts a new body, with room for at least `size` bytes. */
  reset(size: number): this {
    if (size > this.bytes.length) this.bytes = Buffer.allocUnsafe(size * 2);
    this.length = 0;
    this.sum = 0;
    return this;
  }

  text(value: string): this {
    const b = this.bytes;
    const at = this.length;
    let sum = this.sum;
    for (let i = 0; i < value.length; i++) {
      // The byte as stored (latin1: a character's low byte), for the sum too.
      const byte = value.charCodeAt(i) & 0xff;
      b[at + i] = byte;
      sum += byte;
    }
    this.length = at + value.length;
    this.sum = sum;
    return this;
  }

  /** A number as JavaScript writes it; a whole non-negative one digit by digit. */
  number(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) return this.text(String(n));
    const b = this.bytes;
    if (n < 10) {
      // Most of a report's quantities (one share: LastQty, CumQty, LeavesQty).
      b[this.length++] = 0x30 + n;
      this.sum += 0x30 + n;
      return this;
    }
    let end = this.length + 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) end++;
    let rest = n;
    let sum = this.sum;
    for (let i = end - 1; i >= this.length; i--) {
      const digit = 0x30 + (rest % 10);
      b[i] = digit;
      sum += digit;
      rest = Math.floor(rest / 10);
    }
    this.length = end;
    this.sum = sum;
    return this;
  }

  /** Ends a field. */
  soh(): this {
    this.bytes[this.length++] = 1;
    this.sum += 1;
    return this;
  }
}
