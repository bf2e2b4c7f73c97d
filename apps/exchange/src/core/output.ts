import {
  OUT_ACCEPTED,
  OUT_CANCELED,
  OUT_COMPLETED,
  OUT_EXECUTION,
  OUT_LEVEL,
  OUT_REJECTED,
  RESULT,
  resultName,
  SIDE_BUY,
} from './codes.ts';

/**
 * The engine's output: fixed-width numeric records in one growable Float64Array, reused between
 * calls, so that the hot path writes numbers and allocates nothing. `toEvents` turns records
 * into the versioned JSON events the rest of the platform carries.
 *
 * Every record starts with [kind, input seq, output position]; the rest by kind:
 *   ACCEPTED   orderId, side, price, quantity
 *   EXECUTION  executionId, orderId, side, price, quantity, counterOrderId   (result MATCH_SUCCESS)
 *   COMPLETED  orderId
 *   CANCELED   orderId, canceledQuantity                                     (result CANCEL_SUCCESS)
 *   REJECTED   result code, orderId (or -1), expected seq (OUT_OF_ORDER) or -1
 *   LEVEL      side, price, volume after the change, orders at the level
 */
export const RECORD_WIDTH = 10;

export class OutputBuffer {
  #records = new Float64Array(RECORD_WIDTH * 256);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** The raw records (valid up to count * RECORD_WIDTH). */
  get records(): Float64Array {
    return this.#records;
  }

  clear(): void {
    this.#count = 0;
  }

  /** Reserves a record and returns its offset; the caller fills fields 0..9. */
  reserve(): number {
    const offset = this.#count * RECORD_WIDTH;
    if (offset + RECORD_WIDTH > this.#records.length) {
      const grown = new Float64Array(this.#records.length * 2);
      grown.set(this.#records);
      this.#records = grown;
    }
    this.#count++;
    return offset;
  }

  kindAt(index: number): number {
    return this.#records[index * RECORD_WIDTH]!;
  }

  field(index: number, field: number): number {
    return this.#records[index * RECORD_WIDTH + field]!;
  }
}

export type Side = 'buy' | 'sell';

/** The spec's order statuses, as the API will spell them. */
export type OrderStatus = 'new' | 'canceled' | 'completed';

interface EventBase {
  readonly v: 1;
  readonly symbol: string;
  /** The input seq this output came from. */
  readonly seq: number;
  /** The output's own position in the engine's output stream. */
  readonly position: number;
}

export type EngineEvent = EventBase &
  (
    | {
        readonly type: 'order.accepted';
        readonly status: 'new';
        readonly orderId: number;
        readonly side: Side;
        readonly price: number;
        readonly quantity: number;
      }
    | {
        readonly type: 'execution';
        readonly result: 'MATCH_SUCCESS';
        readonly id: number;
        readonly orderId: number;
        readonly side: Side;
        readonly price: number;
        readonly quantity: number;
        readonly counterOrderId: number;
      }
    | { readonly type: 'order.completed'; readonly status: 'completed'; readonly orderId: number }
    | {
        readonly type: 'order.canceled';
        readonly status: 'canceled';
        readonly result: 'CANCEL_SUCCESS';
        readonly orderId: number;
        readonly canceledQuantity: number;
      }
    | {
        readonly type: 'rejected';
        readonly result: string;
        readonly orderId?: number;
        readonly expectedSeq?: number;
      }
    | {
        readonly type: 'book.level';
        readonly side: Side;
        readonly price: number;
        readonly volume: number;
        readonly orders: number;
      }
  );

const sideName = (code: number): Side => (code === SIDE_BUY ? 'buy' : 'sell');

/** Materialises the buffer's records as versioned JSON-serialisable events. */
export function toEvents(symbol: string, out: OutputBuffer): EngineEvent[] {
  const events: EngineEvent[] = [];
  const r = out.records;
  for (let i = 0; i < out.count; i++) {
    const o = i * RECORD_WIDTH;
    const base = { v: 1 as const, symbol, seq: r[o + 1]!, position: r[o + 2]! };
    switch (r[o]) {
      case OUT_ACCEPTED:
        events.push({
          ...base,
          type: 'order.accepted',
          status: 'new',
          orderId: r[o + 3]!,
          side: sideName(r[o + 4]!),
          price: r[o + 5]!,
          quantity: r[o + 6]!,
        });
        break;
      case OUT_EXECUTION:
        events.push({
          ...base,
          type: 'execution',
          result: 'MATCH_SUCCESS',
          id: r[o + 3]!,
          orderId: r[o + 4]!,
          side: sideName(r[o + 5]!),
          price: r[o + 6]!,
          quantity: r[o + 7]!,
          counterOrderId: r[o + 8]!,
        });
        break;
      case OUT_COMPLETED:
        events.push({ ...base, type: 'order.completed', status: 'completed', orderId: r[o + 3]! });
        break;
      case OUT_CANCELED:
        events.push({
          ...base,
          type: 'order.canceled',
          status: 'canceled',
          result: 'CANCEL_SUCCESS',
          orderId: r[o + 3]!,
          canceledQuantity: r[o + 4]!,
        });
        break;
      case OUT_REJECTED: {
        const code = r[o + 3]!;
        events.push({
          ...base,
          type: 'rejected',
          result: resultName(code),
          ...(r[o + 4]! >= 0 ? { orderId: r[o + 4]! } : {}),
          ...(code === RESULT.OUT_OF_ORDER ? { expectedSeq: r[o + 5]! } : {}),
        });
        break;
      }
      case OUT_LEVEL:
        events.push({
          ...base,
          type: 'book.level',
          side: sideName(r[o + 3]!),
          price: r[o + 4]!,
          volume: r[o + 5]!,
          orders: r[o + 6]!,
        });
        break;
      default:
        throw new RangeError(`unknown output record kind ${r[o]}`);
    }
  }
  return events;
}
