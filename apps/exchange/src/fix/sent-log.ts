/**
 * The last application messages sent to one SenderCompID, kept for a resend, off the JS heap:
 * their text in one byte ring (a Buffer), their numbers and places in typed arrays. Kept as
 * strings in a Map, 10,000 of them live just long enough to be promoted out of the young
 * generation and then die, on every message: the garbage collector's largest single cost on the
 * FIX path (bench/fix.ts: about 43,000 orders per CPU-second with a 10-message window against
 * 30,000–40,000 with a Map of 10,000). Bytes in a Buffer cost it nothing.
 *
 * It keeps at most `window` messages and at most the larger of `window` × BYTES_PER_MESSAGE bytes
 * and MIN_BYTES of them; a message pushed out either way is gone, and a resend gap-fills it (as
 * FIX allows).
 */
import type { SentMessage, SentStore } from './resend.ts';

/** Room per message in the ring: an ExecutionReport's body and stamp take about 230 bytes. */
const BYTES_PER_MESSAGE = 320;
const MIN_BYTES = 64 * 1024;

export class SentLog implements SentStore {
  readonly #window: number;
  readonly #bytes: Buffer;
  /** Bytes written since the start (positions are absolute; the ring holds the last #bytes.length). */
  #written = 0;
  /** Per slot (seq % window): the seq kept there (0: none), where its text starts, its lengths. */
  readonly #seqs: Float64Array;
  readonly #starts: Float64Array;
  readonly #timeLengths: Uint8Array;
  readonly #lengths: Uint32Array;
  readonly #types: string[];

  constructor(window = 10_000) {
    this.#window = window;
    this.#bytes = Buffer.allocUnsafe(Math.max(MIN_BYTES, window * BYTES_PER_MESSAGE));
    this.#seqs = new Float64Array(window);
    this.#starts = new Float64Array(window);
    this.#timeLengths = new Uint8Array(window);
    this.#lengths = new Uint32Array(window);
    this.#types = new Array<string>(window).fill('');
  }

  get(seq: number): SentMessage | undefined {
    const slot = seq % this.#window;
    if (this.#seqs[slot] !== seq) return undefined;
    const start = this.#starts[slot]!;
    if (start < this.#written - this.#bytes.length) return undefined;
    const at = start % this.#bytes.length;
    const timeEnd = at + this.#timeLengths[slot]!;
    return {
      msgType: this.#types[slot]!,
      sendingTime: this.#bytes.toString('latin1', at, timeEnd),
      body: this.#bytes.toString('latin1', timeEnd + 1, at + this.#lengths[slot]!),
    };
  }

  set(seq: number, { msgType, body, sendingTime }: SentMessage): this {
    const at = this.#place(seq, msgType, sendingTime.length, body.length);
    if (at === -1) return this;
    this.#bytes.write(sendingTime, at, 'latin1');
    this.#bytes[at + sendingTime.length] = 1;
    this.#bytes.write(body, at + sendingTime.length + 1, 'latin1');
    return this;
  }

  /**
   * `set`, copied from the frame as written (frame-writer.ts): its SendingTime field's value,
   * then SOH and the body, are the bytes `[timeStart, bodyEnd)` of `frame`. One copy of bytes
   * already encoded, where `set` encodes the body's string again.
   */
  setFromFrame(
    seq: number,
    msgType: string,
    frame: Buffer,
    timeStart: number,
    timeLength: number,
    bodyEnd: number,
  ): void {
    const at = this.#place(seq, msgType, timeLength, bodyEnd - timeStart - timeLength - 1);
    if (at !== -1) frame.copy(this.#bytes, at, timeStart, bodyEnd);
  }

  /** Takes a place in the ring for a message; answers where its bytes go, or -1 (not kept). */
  #place(seq: number, msgType: string, timeLength: number, bodyLength: number): number {
    const slot = seq % this.#window;
    // The sending time, SOH, the body.
    const length = timeLength + 1 + bodyLength;
    const capacity = this.#bytes.length;
    if (length > capacity || timeLength > 255) {
      this.#seqs[slot] = 0;
      return -1;
    }
    let at = this.#written % capacity;
    // A message is never cut by the ring's end: the tail is skipped.
    if (at + length > capacity) {
      this.#written += capacity - at;
      at = 0;
    }
    this.#seqs[slot] = seq;
    this.#starts[slot] = this.#written;
    this.#timeLengths[slot] = timeLength;
    this.#lengths[slot] = length;
    this.#types[slot] = msgType;
    this.#written += length;
    return at;
  }

  delete(seq: number): boolean {
    const slot = seq % this.#window;
    if (this.#seqs[slot] !== seq) return false;
    this.#seqs[slot] = 0;
    return true;
  }

  clear(): void {
    this.#seqs.fill(0);
  }
}
