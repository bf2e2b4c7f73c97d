/**
 * What has left the in-memory state (executions and finished orders, held by the journal until a
 * snapshot stores them), folded into a running hash so the state digest still covers it. Records
 * are folded a block at a time, at fixed counts, so the hash depends only on the records and
 * never on when a snapshot was taken; the unfolded tail travels in the snapshot. The fold is
 * lazy: a record is kept by reference (it is final) and turned into its line only when the hash
 * is read (a snapshot, a digest), off the order path.
 */
import { createHash } from 'node:crypto';
import type { Execution, Order } from './messages.ts';

/** Records per fold: one sha256 per block keeps the cost per record to building its line. */
export const FOLD_EVERY = 1024;

/** An execution's line in the fold: every field, in a fixed order. */
export const executionLine = (e: Execution): string =>
  `x,${e.id},${e.seq},${e.orderId},${e.account},${e.symbol},${e.side},${e.price},${e.quantity},${e.counterOrderId},${e.at}`;

/** A finished order's line in the fold: every field, in a fixed order. */
export const orderLine = (o: Order): string =>
  `o,${o.id},${o.account},${o.creationTime},${o.symbol},${o.side},${o.price},${o.quantity},${o.filledQuantity},${o.remainingQuantity},${o.status},${o.clientOrderId ?? ''}`;

const lineOf = (record: Order | Execution): string =>
  'status' in record ? orderLine(record) : executionLine(record);

export class RetiredDigest {
  /** sha256 (hex) of the blocks folded so far, '' before the first. */
  #hash = '';
  /** The lines not folded yet, fewer than FOLD_EVERY. */
  readonly #tail: string[] = [];
  /** Records added since the hash was last read, in order. */
  #pending: Array<Order | Execution> = [];

  /** A record that left the state, final (never changed again). */
  add(record: Order | Execution): void {
    this.#pending.push(record);
  }

  get hash(): string {
    this.#fold();
    return this.#hash;
  }

  /** A copy: the digest goes on folding into its own. */
  get tail(): string[] {
    this.#fold();
    return [...this.#tail];
  }

  static restore(hash: string, tail: readonly string[]): RetiredDigest {
    const digest = new RetiredDigest();
    digest.#hash = hash;
    for (const line of tail) digest.#tail.push(line);
    return digest;
  }

  #fold(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (const record of pending) {
      this.#tail.push(lineOf(record));
      if (this.#tail.length === FOLD_EVERY) {
        this.#hash = createHash('sha256').update(this.#hash).update(this.#tail.join('\n')).digest('hex');
        this.#tail.length = 0;
      }
    }
  }
}
