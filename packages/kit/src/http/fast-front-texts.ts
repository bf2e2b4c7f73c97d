/**
 * A connection's last value of one request field (its target, Authorization, Content-Type), so
 * that a client that sends the same value with every request gets the same string each time:
 * no new string a request, and the caches keyed by it (the token lookups) hash and compare it
 * once, not every time. The bytes are compared here in place, with no allocation.
 */
import type { ValueText } from './fast-front-head.ts';
import { MAX_REMEMBERED_LENGTH } from './fast-route-table.ts';

export class RememberedText {
  /** The remembered value's bytes (its first `#length`), grown as needed, never shrunk. */
  #bytes: Buffer | undefined;
  #length = -1;
  #text = '';

  /** The text of `bytes` from `start` to `end` (latin1): the last one's string when the bytes are the same. */
  readonly read: ValueText = (bytes, start, end) => {
    const length = end - start;
    const last = this.#bytes;
    if (last !== undefined && length === this.#length && sameBytes(last, bytes, start, length))
      return this.#text;
    const text = bytes.toString('latin1', start, end);
    if (length > MAX_REMEMBERED_LENGTH) return text;
    if (last === undefined || last.length < length) this.#bytes = Buffer.allocUnsafe(Math.max(64, length));
    bytes.copy(this.#bytes!, 0, start, end);
    this.#length = length;
    this.#text = text;
    return text;
  };
}

/** Whether `bytes` from `start` holds the first `length` bytes of `last` (a loop: Buffer#compare with offsets allocates). */
function sameBytes(last: Buffer, bytes: Buffer, start: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (last[i] !== bytes[start + i]) return false;
  return true;
}
