/**
 * A batch's commands as the journal stores them (command-codec.ts's layout, comma-joined: the
 * same characters as JSON.stringify of their rows), written byte by byte into one buffer that
 * every batch reuses: new orders and cancels, nearly all of the traffic, make no row array and no
 * string of their own. What the fast path cannot write exactly as JSON does (a string to escape,
 * a number that is not a plain integer, any other command) goes through JSON.stringify.
 * A buffer grown for a large batch is halved after SHRINK_AFTER batches in a row that used under
 * a quarter of it, down to its first size: one burst does not hold its memory for good, and a
 * size that keeps coming back is not given up after one quiet batch.
 */
import type { Command } from '../../core/messages.ts';
import { CANCEL_V1, encodeCommand, NEW_V1, NEW_V1_CLIENT_ID } from './command-codec.ts';

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const ZERO = 0x30;
/** Integers below this are written digit by digit (their part above eight digits fits 32 bits). */
const PLAIN_INTEGER = 1e15;
const INT32_MAX = 0x7fffffff;
/** A new order's bytes besides its strings: the brackets, commas, code, side and four numbers. */
const NUMBERS_AND_PUNCTUATION = 128;
/** The most bytes JSON writes for one UTF-16 unit of a string (`\uXXXX`). */
const MAX_BYTES_PER_UNIT = 6;
const INITIAL_BYTES = 64 * 1024;
const SHRINK_AFTER = 64;

export class CommandText {
  #bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  #length = 0;
  /** Batches in a row, just taken, that used under a quarter of the buffer. */
  #small = 0;
  /** Whether every byte written is ASCII: the text is then read as Latin-1, a plain copy. */
  #ascii = true;

  /** Appends the command; throws, having written nothing, when JSON cannot write it. */
  add(command: Command): void {
    const length = this.#length;
    const ascii = this.#ascii;
    try {
      this.#add(command);
    } catch (error) {
      // The fast path may have written part of the row (a bigint met halfway): undo it.
      this.#length = length;
      this.#ascii = ascii;
      throw error;
    }
  }

  #add(command: Command): void {
    if (command.v === 1 && command.type === 'order.new') {
      const { clientOrderId } = command;
      this.#reserve(
        NUMBERS_AND_PUNCTUATION +
          MAX_BYTES_PER_UNIT *
            (command.account.length + command.symbol.length + (clientOrderId?.length ?? 0)),
      );
      this.#start(clientOrderId === undefined ? NEW_V1 : NEW_V1_CLIENT_ID);
      this.#number(command.at);
      this.#string(command.account);
      this.#number(command.orderId);
      this.#string(command.symbol);
      this.#digit(command.side === 'buy' ? 0 : 1);
      this.#number(command.price);
      this.#number(command.quantity);
      if (clientOrderId !== undefined) this.#string(clientOrderId);
      this.#bytes[this.#length++] = CLOSE;
    } else if (command.v === 1 && command.type === 'order.cancel') {
      this.#reserve(NUMBERS_AND_PUNCTUATION + MAX_BYTES_PER_UNIT * command.account.length);
      this.#start(CANCEL_V1);
      this.#number(command.at);
      this.#string(command.account);
      this.#number(command.orderId);
      this.#bytes[this.#length++] = CLOSE;
    } else {
      // Serialized before anything is written: a command JSON cannot write leaves no trace.
      const text = encodeCommand(command);
      this.#reserve(1 + Buffer.byteLength(text));
      if (this.#length > 0) this.#bytes[this.#length++] = COMMA;
      this.#utf8(text, this.#length);
    }
  }

  /** The text written since the last take, which starts the buffer over. */
  take(): string {
    const used = this.#length;
    const text = this.#bytes.toString(this.#ascii ? 'latin1' : 'utf8', 0, used);
    this.clear();
    this.#fit(used);
    return text;
  }

  /** The buffer's size in bytes (grown for a large batch, shrunk back after small ones). */
  get capacity(): number {
    return this.#bytes.length;
  }

  /** Forgets what was written (a batch lost before it was taken). */
  clear(): void {
    this.#length = 0;
    this.#ascii = true;
  }

  /** JSON's text at `at`, in UTF-8 (it may hold what is not ASCII). */
  #utf8(text: string, at: number): void {
    const written = this.#bytes.write(text, at);
    if (written !== text.length) this.#ascii = false;
    this.#length = at + written;
  }

  /** After a batch that used `used` bytes (the buffer is empty): maybe halves a grown buffer. */
  #fit(used: number): void {
    const size = this.#bytes.length;
    if (size <= INITIAL_BYTES || 4 * used >= size) {
      this.#small = 0;
      return;
    }
    if (++this.#small < SHRINK_AFTER) return;
    this.#bytes = Buffer.allocUnsafe(Math.max(INITIAL_BYTES, Math.floor(size / 2)));
    this.#small = 0;
  }

  #reserve(bytes: number): void {
    const needed = this.#length + bytes;
    if (needed <= this.#bytes.length) return;
    const larger = Buffer.allocUnsafe(Math.max(needed, 2 * this.#bytes.length));
    this.#bytes.copy(larger, 0, 0, this.#length);
    this.#bytes = larger;
  }

  /** A comma unless first, the row's bracket and its layout code. */
  #start(code: number): void {
    const bytes = this.#bytes;
    if (this.#length > 0) bytes[this.#length++] = COMMA;
    bytes[this.#length++] = OPEN;
    bytes[this.#length++] = ZERO + code;
  }

  #digit(d: number): void {
    const bytes = this.#bytes;
    bytes[this.#length++] = COMMA;
    bytes[this.#length++] = ZERO + d;
  }

  #number(n: number): void {
    const bytes = this.#bytes;
    bytes[this.#length++] = COMMA;
    if (!(Number.isInteger(n) && n >= 0 && n < PLAIN_INTEGER)) {
      // Negative, fractional, huge or not finite: JSON's own text (ASCII), as rare as it is.
      this.#length += bytes.write(JSON.stringify(n), this.#length, 'latin1');
      return;
    }
    let digits = 1;
    for (let limit = 10; n >= limit; limit *= 10) digits++;
    const start = this.#length;
    let i = start + digits;
    this.#length = i;
    // Digit by digit from the last, in 32-bit integer arithmetic: eight low digits first when
    // the number is larger than that allows.
    let rest = n;
    if (rest > INT32_MAX) {
      const high = Math.floor(rest / 1e8);
      let low = rest - high * 1e8;
      for (let k = 0; k < 8; k++) {
        const q = (low / 10) | 0;
        bytes[--i] = ZERO + low - q * 10;
        low = q;
      }
      rest = high;
    }
    while (i > start) {
      const q = (rest / 10) | 0;
      bytes[--i] = ZERO + rest - q * 10;
      rest = q;
    }
  }

  #string(s: string): void {
    const bytes = this.#bytes;
    bytes[this.#length++] = COMMA;
    const start = this.#length;
    bytes[this.#length++] = QUOTE;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) {
        // Something to escape, or not ASCII: JSON's own text, in UTF-8.
        this.#utf8(JSON.stringify(s), start);
        return;
      }
      bytes[this.#length++] = c;
    }
    bytes[this.#length++] = QUOTE;
  }
}
