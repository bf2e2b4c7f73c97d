/**
 * The matching engine of one symbol: sequenced input in, deterministic output out.
 *
 * Input is a stream of events {seq, type: NEW | CANCEL, …}. The engine
 *   1. checks the sequence: a seq other than the next expected is rejected with OUT_OF_ORDER and
 *      the expected number, and consumes nothing (the sender resends from there);
 *   2. checks the message type (INVALID_MSG_TYPE) and the order (INVALID_ORDER: unknown or
 *      missing symbol, price off the tick grid or outside the band, quantity not whole lots, bad
 *      id or side, an id already resting; a CANCEL may omit the symbol, as an id names its order);
 *   3. hands NEW to the book (match, then rest) and CANCEL to the book (CANCEL_SUCCESS, or
 *      CANNOT_CANCEL_ALREADY_MATCHED when the order is no longer there).
 * Every output record carries the input seq and its own position (see output.ts).
 *
 * Order ids come with the input, assigned upstream by the order manager, so that a replay of
 * the journal reproduces them; the engine has no clock, no randomness and no I/O.
 */
import {
  ACCEPTED,
  MSG_CANCEL,
  MSG_NEW,
  RESULT,
  SIDE_BUY,
  SIDE_SELL,
  type ResultCode,
  type SideCode,
} from './codes.ts';
import { Emitter } from './emitter.ts';
import { LadderOrderBook } from './ladder-order-book.ts';
import type { OrderBook } from './order-book.ts';
import { OutputBuffer } from './output.ts';
import { validPrice, validQuantity, type SymbolSpec } from './symbol-spec.ts';

/** An inbound event as JSON carries it (the journal, the sequencer's stream). */
export interface InputEvent {
  readonly seq: number;
  readonly type: string;
  readonly symbol?: string;
  readonly orderId?: number;
  readonly side?: string;
  readonly price?: number;
  readonly quantity?: number;
}

/** A book at a sequence number: restoring it and replaying the rest equals a straight run. */
export interface EngineSnapshot {
  readonly v: 1;
  readonly spec: SymbolSpec;
  readonly nextSeq: number;
  readonly nextPosition: number;
  readonly nextExecutionId: number;
  /** [orderId, side (0 buy, 1 sell), price, remaining, filled], in book order. */
  readonly orders: ReadonlyArray<readonly [number, number, number, number, number]>;
}

export interface EngineOptions {
  /** The book to use (default: the fast LadderOrderBook); tests pass the reference model. */
  readonly book?: (spec: SymbolSpec) => OrderBook;
  /** Seq of the first expected event (default 1). */
  readonly nextSeq?: number;
}

export class MatchingEngine {
  readonly spec: SymbolSpec;
  readonly book: OrderBook;
  /** Output of the calls so far; the caller reads it and clears it. */
  readonly out = new OutputBuffer();
  readonly #emit = new Emitter(this.out);
  #nextSeq: number;

  constructor(spec: SymbolSpec, options: EngineOptions = {}) {
    this.spec = spec;
    this.book = (options.book ?? ((s: SymbolSpec) => new LadderOrderBook(s)))(spec);
    this.#nextSeq = options.nextSeq ?? 1;
  }

  get nextSeq(): number {
    return this.#nextSeq;
  }

  /**
   * The numeric entry point (no allocation): returns MATCH_SUCCESS, CANCEL_SUCCESS, ACCEPTED or
   * the reject code. `symbolMatches` is false when the event named another symbol.
   */
  submit(
    seq: number,
    type: number,
    orderId: number,
    side: number,
    price: number,
    quantity: number,
    symbolMatches = true,
  ): ResultCode | typeof ACCEPTED {
    const emit = this.#emit;
    emit.seq = seq;
    const id = Number.isSafeInteger(orderId) && orderId >= 0 ? orderId : -1;
    if (seq !== this.#nextSeq) return this.#reject(RESULT.OUT_OF_ORDER, id, this.#nextSeq);
    this.#nextSeq++;
    if (type === MSG_NEW) {
      if (
        !symbolMatches ||
        id < 0 ||
        (side !== SIDE_BUY && side !== SIDE_SELL) ||
        !validPrice(this.spec, price) ||
        !validQuantity(this.spec, quantity) ||
        this.book.has(id)
      ) {
        return this.#reject(RESULT.INVALID_ORDER, id, -1);
      }
      const executionsBefore = emit.executionId;
      this.book.placeLimit(id, side, price, quantity, emit);
      return emit.executionId === executionsBefore ? ACCEPTED : RESULT.MATCH_SUCCESS;
    }
    if (type === MSG_CANCEL) {
      if (!symbolMatches || id < 0) return this.#reject(RESULT.INVALID_ORDER, id, -1);
      if (this.book.cancel(id, emit)) return RESULT.CANCEL_SUCCESS;
      return this.#reject(RESULT.CANNOT_CANCEL_ALREADY_MATCHED, id, -1);
    }
    return this.#reject(RESULT.INVALID_MSG_TYPE, id, -1);
  }

  /** The JSON entry point: maps an inbound event to `submit`. */
  process(event: InputEvent): ResultCode | typeof ACCEPTED {
    const type = event.type === 'NEW' ? MSG_NEW : event.type === 'CANCEL' ? MSG_CANCEL : 0;
    const side = event.side === 'buy' ? SIDE_BUY : event.side === 'sell' ? SIDE_SELL : -1;
    const symbolMatches =
      event.symbol === this.spec.symbol || (event.symbol === undefined && type === MSG_CANCEL);
    return this.submit(
      event.seq,
      type,
      event.orderId ?? -1,
      side,
      event.price ?? Number.NaN,
      event.quantity ?? Number.NaN,
      symbolMatches,
    );
  }

  snapshot(): EngineSnapshot {
    const orders: Array<[number, number, number, number, number]> = [];
    this.book.forEachOrder((orderId, side, price, remaining, filled) => {
      orders.push([orderId, side, price, remaining, filled]);
    });
    return {
      v: 1,
      spec: this.spec,
      nextSeq: this.#nextSeq,
      nextPosition: this.#emit.position,
      nextExecutionId: this.#emit.executionId,
      orders,
    };
  }

  static restore(snapshot: EngineSnapshot, options: Omit<EngineOptions, 'nextSeq'> = {}): MatchingEngine {
    const engine = new MatchingEngine(snapshot.spec, { ...options, nextSeq: snapshot.nextSeq });
    engine.#emit.position = snapshot.nextPosition;
    engine.#emit.executionId = snapshot.nextExecutionId;
    for (const [orderId, side, price, remaining, filled] of snapshot.orders) {
      engine.book.restore(orderId, side as SideCode, price, remaining, filled);
    }
    return engine;
  }

  #reject(code: ResultCode, orderId: number, expectedSeq: number): ResultCode {
    this.#emit.rejected(code, orderId, expectedSeq);
    return code;
  }
}
