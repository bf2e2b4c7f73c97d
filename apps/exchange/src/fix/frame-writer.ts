/**
 * A connection's outbound bytes, written in place. An application message's frame goes straight
 * into a chunk of memory (header, body, checksum over the bytes just written) and the socket gets
 * slices of that chunk: before, each ExecutionReport was a header string, a frame string, a copy
 * for its checksum, a joined string per write and the socket's own copy of that (about 12 % of the
 * exchange's CPU under FIX load, bench/fix.ts, and much of its garbage). A slice handed out is
 * never written again: writing goes on after it, and a full chunk is left to the socket.
 */
import type { EncodedBody } from './body-bytes.ts';
import { BEGIN_STRING, CHECKSUMS, SOH } from './codec.ts';

/** Where a session writes an application message's frame. */
export interface FrameOut {
  /**
   * The frame `35=msgType|49=sender|56=target|34=seq|52=sendingTime|` + body (already encoded, as
   * text or bytes);
   * answers where its body starts in `bytes` (the SendingTime's value and SOH are just before).
   */
  frame(
    msgType: string,
    sender: string,
    target: string,
    seq: number,
    sendingTime: string,
    body: string | EncodedBody,
  ): number;
  /** The bytes the last frame was written into. */
  readonly bytes: Buffer;
}

const CHUNK = 256 * 1024;
const START = `8=${BEGIN_STRING}${SOH}9=`;

export class FrameWriter implements FrameOut {
  readonly #chunkSize: number;
  #chunk: Buffer;
  /** The first byte not taken yet, and the end of what is written. */
  #start = 0;
  #end = 0;
  /** Slices of chunks filled before this one, not taken yet. */
  #full: Buffer[] = [];

  /** `chunkSize`: bytes per chunk (the tests pass small ones to cross chunks). */
  constructor(chunkSize = CHUNK) {
    this.#chunkSize = chunkSize;
    this.#chunk = Buffer.allocUnsafe(chunkSize);
  }

  get bytes(): Buffer {
    return this.#chunk;
  }

  get empty(): boolean {
    return this.#end === this.#start && this.#full.length === 0;
  }

  /** A frame already encoded (session-level messages, resends), after what is written. */
  raw(frame: string): void {
    this.#room(frame.length);
    this.#end += this.#chunk.write(frame, this.#end, 'latin1');
  }

  frame(
    msgType: string,
    sender: string,
    target: string,
    seq: number,
    sendingTime: string,
    body: string | EncodedBody,
  ): number {
    // BodyBytes writes without bounds checks (a typed array drops bytes past its end while the
    // length still counts them): a body that outgrew its buffer must not become a frame.
    if (typeof body !== 'string' && body.length > body.bytes.length) {
      throw new RangeError(`a FIX body of ${body.length} bytes outgrew its buffer of ${body.bytes.length}`);
    }
    const bodyLength =
      msgType.length + sender.length + target.length + digits(seq) + sendingTime.length + body.length + 20;
    this.#room(START.length + digits(bodyLength) + 1 + bodyLength + 7);
    const b = this.#chunk;
    const begin = this.#end;
    let at = ascii(b, begin, START);
    at = int(b, at, bodyLength);
    b[at++] = 1;
    at = field(b, at, 0x33, 0x35, msgType);
    at = field(b, at, 0x34, 0x39, sender);
    at = field(b, at, 0x35, 0x36, target);
    b[at] = 0x33;
    b[at + 1] = 0x34;
    b[at + 2] = 0x3d;
    at = int(b, at + 3, seq);
    b[at++] = 1;
    at = field(b, at, 0x35, 0x32, sendingTime);
    let sum = 0;
    for (let i = begin; i < at; i++) sum += b[i]!;
    const bodyStart = at;
    if (typeof body === 'string') at += b.write(body, at, 'latin1');
    else at += body.bytes.copy(b, at, 0, body.length);
    if (typeof body !== 'string' && body.sum !== undefined) sum += body.sum;
    else for (let i = bodyStart; i < at; i++) sum += b[i]!;
    at = ascii(b, at, '10=');
    at = ascii(b, at, CHECKSUMS[sum & 0xff]!);
    b[at++] = 1;
    this.#end = at;
    return bodyStart;
  }

  /** What was written since the last take, in order, for the socket; nothing of it is written again. */
  take(): Buffer[] {
    const taken = this.#full;
    if (this.#end > this.#start) taken.push(this.#chunk.subarray(this.#start, this.#end));
    this.#start = this.#end;
    this.#full = [];
    return taken;
  }

  /** Makes room for `size` more bytes: a new chunk when this one is short of it. */
  #room(size: number): void {
    if (this.#end + size <= this.#chunk.length) return;
    if (this.#end > this.#start) this.#full.push(this.#chunk.subarray(this.#start, this.#end));
    this.#chunk = Buffer.allocUnsafe(Math.max(this.#chunkSize, size));
    this.#start = 0;
    this.#end = 0;
  }
}

/** Writes a short ASCII string at `at`; answers the end. */
function ascii(b: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) b[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/** Writes `tag=value<SOH>` for a two-digit tag (its digits' codes). */
function field(b: Buffer, at: number, tens: number, ones: number, value: string): number {
  b[at] = tens;
  b[at + 1] = ones;
  b[at + 2] = 0x3d;
  const end = ascii(b, at + 3, value);
  b[end] = 1;
  return end + 1;
}

/** Writes a non-negative integer's digits. */
function int(b: Buffer, at: number, n: number): number {
  const end = at + digits(n);
  let rest = n;
  for (let i = end - 1; i >= at; i--) {
    b[i] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return end;
}

function digits(n: number): number {
  let count = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) count++;
  return count;
}
