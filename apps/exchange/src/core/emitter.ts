import {
  OUT_ACCEPTED,
  OUT_CANCELED,
  OUT_COMPLETED,
  OUT_EXECUTION,
  OUT_LEVEL,
  OUT_REJECTED,
  SIDE_BUY,
  SIDE_SELL,
} from './codes.ts';
import type { OutputBuffer } from './output.ts';

/**
 * Writes output records for the input being processed, numbering them: every record gets the
 * input seq and the next output position, every execution the next execution id. Both counters
 * are engine state (snapshotted), so a replay numbers its outputs exactly as the first run did.
 */
export class Emitter {
  readonly out: OutputBuffer;
  /** Seq of the input being processed. */
  seq = 0;
  /** Position the next record gets. */
  position = 1;
  /** Id the next execution gets. */
  executionId = 1;

  constructor(out: OutputBuffer) {
    this.out = out;
  }

  #record(kind: number): number {
    const offset = this.out.reserve();
    const r = this.out.records;
    r[offset] = kind;
    r[offset + 1] = this.seq;
    r[offset + 2] = this.position++;
    return offset;
  }

  accepted(orderId: number, side: number, price: number, quantity: number): void {
    const o = this.#record(OUT_ACCEPTED);
    const r = this.out.records;
    r[o + 3] = orderId;
    r[o + 4] = side;
    r[o + 5] = price;
    r[o + 6] = quantity;
  }

  /** A match: the buyer's execution, then the seller's (the spec's fixed order). */
  match(buyOrderId: number, sellOrderId: number, price: number, quantity: number): void {
    this.#execution(buyOrderId, SIDE_BUY, price, quantity, sellOrderId);
    this.#execution(sellOrderId, SIDE_SELL, price, quantity, buyOrderId);
  }

  #execution(orderId: number, side: number, price: number, quantity: number, counterOrderId: number): void {
    const o = this.#record(OUT_EXECUTION);
    const r = this.out.records;
    r[o + 3] = this.executionId++;
    r[o + 4] = orderId;
    r[o + 5] = side;
    r[o + 6] = price;
    r[o + 7] = quantity;
    r[o + 8] = counterOrderId;
  }

  completed(orderId: number): void {
    const o = this.#record(OUT_COMPLETED);
    this.out.records[o + 3] = orderId;
  }

  canceled(orderId: number, quantity: number): void {
    const o = this.#record(OUT_CANCELED);
    const r = this.out.records;
    r[o + 3] = orderId;
    r[o + 4] = quantity;
  }

  rejected(code: number, orderId: number, expectedSeq: number): void {
    const o = this.#record(OUT_REJECTED);
    const r = this.out.records;
    r[o + 3] = code;
    r[o + 4] = orderId;
    r[o + 5] = expectedSeq;
  }

  level(side: number, price: number, volume: number, orders: number): void {
    const o = this.#record(OUT_LEVEL);
    const r = this.out.records;
    r[o + 3] = side;
    r[o + 4] = price;
    r[o + 5] = volume;
    r[o + 6] = orders;
  }
}
