/**
 * How a batch goes to the journal's writer thread and its outcome comes back: through memory both
 * threads share, woken with Atomics, not as a message. A message costs each group commit a
 * structured clone, an event dispatched on each side and the writer's event loop turn (about
 * 28 µs of CPU a round trip against 10 µs this way, measured in docs/benchmarks.md's history),
 * paid by every batch. What is rare goes on a MessagePort beside it, read synchronously
 * (receiveMessageOnPort): a batch with a snapshot or larger than the shared bytes, a failure's
 * error, a WAL copy-back's failure.
 *
 * One request at a time: the caller writes the request's slots, bumps REQUEST and waits for DONE
 * to move; the writer waits for REQUEST to move, does the work, writes OUTCOME and bumps DONE.
 * The Atomics operations order the plain reads and writes around them.
 */
import type { JournalBatch } from './journal-store.ts';

/** The Int32 slots. */
const REQUEST = 0;
const DONE = 1;
const KIND = 2;
const LENGTH = 3;
const RESTART_WAL = 4;
const OUTCOME = 5;
const INT_SLOTS = 8;
/** The Float64 slots (seqs pass 2^31): first and last seq of the batch in the bytes. */
const SEQS_AT = INT_SLOTS * 4;
const BYTES_AT = SEQS_AT + 2 * 8;

export const RequestKind = {
  /** The batch's commands are the shared bytes, its seqs the seq slots. */
  SharedBatch: 1,
  /** The batch is a message on the port. */
  PortBatch: 2,
  Close: 3,
} as const;
export type RequestKind = (typeof RequestKind)[keyof typeof RequestKind];

export const Outcome = {
  Written: 0,
  /** Written after a WAL copy-back that failed: its message is on the port. */
  CopyBackFailed: 1,
  /** Nothing written: the error is on the port. */
  Failed: 2,
} as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** What the writer reads of a request. */
export interface Request {
  readonly kind: RequestKind;
  readonly restartWal: boolean;
}

/** A failure as it crosses the port: an Error's `code` does not survive the clone, so it goes beside. */
export interface FailureMessage {
  readonly error: unknown;
  readonly code: unknown;
  /** The WAL copy-back asked before the batch failed too: its message (a batch's failure does not hide it). */
  readonly copyBackFailure?: string | undefined;
}

/** The shared memory of one journal's writer and the accessors of both sides. */
export class BatchHandoff {
  readonly buffer: SharedArrayBuffer;
  readonly #ints: Int32Array;
  readonly #seqs: Float64Array;
  readonly #bytes: Buffer;

  /** `buffer`: the caller's (new, of `capacity` bytes for commands) or, in the writer, the one it was given. */
  constructor(buffer: SharedArrayBuffer | number) {
    this.buffer = typeof buffer === 'number' ? new SharedArrayBuffer(BYTES_AT + buffer) : buffer;
    this.#ints = new Int32Array(this.buffer, 0, INT_SLOTS);
    this.#seqs = new Float64Array(this.buffer, SEQS_AT, 2);
    this.#bytes = Buffer.from(this.buffer, BYTES_AT);
  }

  // The caller's side.

  /**
   * Puts a batch of commands only in the shared slots; false (nothing written) when it must go on
   * the port: it has a snapshot, or its commands outgrow the bytes.
   */
  putBatch(batch: JournalBatch): boolean {
    const { commands } = batch;
    const room = this.#bytes.length;
    // UTF-8 takes at most 3 bytes a UTF-16 unit: counted only when that bound does not fit.
    if (batch.snapshot !== undefined || (commands.length * 3 > room && Buffer.byteLength(commands) > room))
      return false;
    this.#ints[LENGTH] = this.#bytes.write(commands, 0, 'utf8');
    this.#seqs[0] = batch.firstSeq;
    this.#seqs[1] = batch.lastSeq;
    return true;
  }

  /**
   * Hands the request over; resolves once the writer is done with it (then `outcome` says how).
   * Never while a request is with the writer.
   */
  send(kind: RequestKind, restartWal: boolean): Promise<unknown> {
    const ints = this.#ints;
    ints[KIND] = kind;
    ints[RESTART_WAL] = restartWal ? 1 : 0;
    const done = Atomics.load(ints, DONE);
    Atomics.add(ints, REQUEST, 1);
    Atomics.notify(ints, REQUEST);
    const waited = Atomics.waitAsync(ints, DONE, done);
    if (waited.async) return waited.value;
    // The writer was done before this line (it may run first once woken). Its outcome is still
    // taken in a later turn, as a message's would be: what this turn appends next gathers behind
    // the batch, whichever thread was quicker.
    return new Promise((resolve) => setImmediate(resolve, waited.value));
  }

  get outcome(): Outcome {
    return Atomics.load(this.#ints, OUTCOME) as Outcome;
  }

  // The writer's side.

  /** Blocks until the request after the `handled` first ones comes; returns it. */
  nextRequest(handled: number): Request {
    const ints = this.#ints;
    // Atomics.wait takes `handled` modulo 2^32, as REQUEST wraps: no end to the count.
    Atomics.wait(ints, REQUEST, handled);
    return { kind: ints[KIND] as RequestKind, restartWal: ints[RESTART_WAL] === 1 };
  }

  /** The batch in the shared slots (RequestKind.SharedBatch). */
  sharedBatch(): JournalBatch {
    return {
      firstSeq: this.#seqs[0]!,
      lastSeq: this.#seqs[1]!,
      commands: this.#bytes.toString('utf8', 0, this.#ints[LENGTH]),
    };
  }

  /** Ends the request with its outcome (after any message of it is on the port). */
  finish(outcome: Outcome): void {
    const ints = this.#ints;
    Atomics.store(ints, OUTCOME, outcome);
    Atomics.add(ints, DONE, 1);
    Atomics.notify(ints, DONE);
  }
}
