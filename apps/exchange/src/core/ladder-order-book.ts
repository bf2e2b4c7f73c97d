import { SIDE_BUY, SIDE_SELL, type SideCode } from './codes.ts';
import type { Emitter } from './emitter.ts';
import { OrderIndex } from './order-index.ts';
import type { OrderBook } from './order-book.ts';
import { checkSpec, type SymbolSpec } from './symbol-spec.ts';

const NONE = -1;

/**
 * The fast book: a price ladder per side, indexed by tick, over the symbol's price band.
 *
 * - A level is four numbers at its tick (volume, order count, head, tail): volume at a price O(1).
 * - Orders live in a pool of typed arrays, linked into their level (an intrusive doubly linked
 *   list): add at the tail O(1), match from the head O(1), cancel O(1) through `OrderIndex`.
 * - A bitset per side marks non-empty levels; the best bid / ask are kept, and when a best level
 *   empties the next one is found by scanning the bitset 32 ticks per step.
 * - Nothing is allocated per order once the pool has grown to the book's size.
 */
export class LadderOrderBook implements OrderBook {
  readonly spec: SymbolSpec;
  readonly #ticks: number;
  // Level arrays are [side * ticks + tick].
  readonly #volume: Float64Array;
  readonly #count: Int32Array;
  readonly #head: Int32Array;
  readonly #tail: Int32Array;
  // Bitsets of non-empty levels, [side * words + word].
  readonly #bits: Uint32Array;
  readonly #words: number;
  #bestBuy = NONE;
  #bestSell = NONE;
  // The order pool.
  #id = new Float64Array(1024);
  #side = new Uint8Array(1024);
  #tick = new Int32Array(1024);
  #remaining = new Float64Array(1024);
  #filled = new Float64Array(1024);
  #next = new Int32Array(1024);
  #prev = new Int32Array(1024);
  #free = new Int32Array(1024);
  #freeTop = 0;
  #used = 0;
  #size = 0;
  readonly #index = new OrderIndex();

  constructor(spec: SymbolSpec) {
    checkSpec(spec);
    this.spec = spec;
    this.#ticks = (spec.maxPrice - spec.minPrice) / spec.tickSize + 1;
    this.#volume = new Float64Array(2 * this.#ticks);
    this.#count = new Int32Array(2 * this.#ticks);
    this.#head = new Int32Array(2 * this.#ticks).fill(NONE);
    this.#tail = new Int32Array(2 * this.#ticks).fill(NONE);
    this.#words = Math.ceil(this.#ticks / 32);
    this.#bits = new Uint32Array(2 * this.#words);
  }

  get size(): number {
    return this.#size;
  }

  has(orderId: number): boolean {
    return this.#index.get(orderId) !== NONE;
  }

  bestBid(): number {
    return this.#bestBuy === NONE ? Number.NaN : this.#priceOf(this.#bestBuy);
  }

  bestAsk(): number {
    return this.#bestSell === NONE ? Number.NaN : this.#priceOf(this.#bestSell);
  }

  volumeAt(side: SideCode, price: number): number {
    const tick = this.#tickOf(price);
    return tick < 0 || tick >= this.#ticks ? 0 : this.#volume[side * this.#ticks + tick]!;
  }

  placeLimit(orderId: number, side: SideCode, price: number, quantity: number, emit: Emitter): void {
    emit.accepted(orderId, side, price, quantity);
    const tick = this.#tickOf(price);
    let remaining = quantity;
    if (side === SIDE_BUY) {
      while (remaining > 0 && this.#bestSell !== NONE && this.#bestSell <= tick) {
        remaining = this.#matchLevel(SIDE_SELL, this.#bestSell, orderId, remaining, emit);
      }
    } else {
      while (remaining > 0 && this.#bestBuy !== NONE && this.#bestBuy >= tick) {
        remaining = this.#matchLevel(SIDE_BUY, this.#bestBuy, orderId, remaining, emit);
      }
    }
    if (remaining === 0) {
      emit.completed(orderId);
      return;
    }
    this.#rest(orderId, side, tick, remaining, quantity - remaining);
    const level = side * this.#ticks + tick;
    emit.level(side, price, this.#volume[level]!, this.#count[level]!);
  }

  cancel(orderId: number, emit: Emitter): boolean {
    const slot = this.#index.get(orderId);
    if (slot === NONE) return false;
    const side = this.#side[slot]! as SideCode;
    const tick = this.#tick[slot]!;
    const remaining = this.#remaining[slot]!;
    this.#unlink(slot);
    const level = side * this.#ticks + tick;
    emit.canceled(orderId, remaining);
    emit.level(side, this.#priceOf(tick), this.#volume[level]!, this.#count[level]!);
    return true;
  }

  forEachLevel(
    side: SideCode,
    visit: (price: number, volume: number, orders: number) => boolean | void,
  ): void {
    const step = side === SIDE_BUY ? -1 : 1;
    let tick = side === SIDE_BUY ? this.#bestBuy : this.#bestSell;
    while (tick !== NONE) {
      const level = side * this.#ticks + tick;
      if (visit(this.#priceOf(tick), this.#volume[level]!, this.#count[level]!) === false) return;
      tick = this.#nextLevel(side, tick + step, step);
    }
  }

  forEachOrderAt(
    side: SideCode,
    price: number,
    visit: (orderId: number, remaining: number, filled: number) => void,
  ): void {
    const tick = this.#tickOf(price);
    // A price off the ladder has no orders (and no slot to read: the loop would never end).
    if (!(Number.isInteger(tick) && tick >= 0 && tick < this.#ticks)) return;
    for (let slot = this.#head[side * this.#ticks + tick]!; slot !== NONE; slot = this.#next[slot]!) {
      visit(this.#id[slot]!, this.#remaining[slot]!, this.#filled[slot]!);
    }
  }

  forEachOrder(
    visit: (orderId: number, side: SideCode, price: number, remaining: number, filled: number) => void,
  ): void {
    for (const side of [SIDE_BUY, SIDE_SELL] as const) {
      this.forEachLevel(side, (price) =>
        this.forEachOrderAt(side, price, (id, remaining, filled) =>
          visit(id, side, price, remaining, filled),
        ),
      );
    }
  }

  restore(orderId: number, side: SideCode, price: number, remaining: number, filled: number): void {
    this.#rest(orderId, side, this.#tickOf(price), remaining, filled);
  }

  /** Fills `remaining` of the incoming order against one level, head first. Returns what is left. */
  #matchLevel(
    restingSide: SideCode,
    tick: number,
    incomingId: number,
    remaining: number,
    emit: Emitter,
  ): number {
    const level = restingSide * this.#ticks + tick;
    const price = this.#priceOf(tick);
    while (remaining > 0) {
      const slot = this.#head[level]!;
      if (slot === NONE) break;
      const resting = this.#remaining[slot]!;
      const fill = resting < remaining ? resting : remaining;
      const restingId = this.#id[slot]!;
      if (restingSide === SIDE_SELL) emit.match(incomingId, restingId, price, fill);
      else emit.match(restingId, incomingId, price, fill);
      remaining -= fill;
      if (fill === resting) {
        this.#filled[slot] = this.#filled[slot]! + fill;
        this.#unlink(slot);
        emit.completed(restingId);
      } else {
        this.#remaining[slot] = resting - fill;
        this.#filled[slot] = this.#filled[slot]! + fill;
        this.#volume[level] = this.#volume[level]! - fill;
      }
      emit.level(restingSide, price, this.#volume[level]!, this.#count[level]!);
    }
    return remaining;
  }

  #rest(orderId: number, side: SideCode, tick: number, remaining: number, filled: number): void {
    const slot = this.#allocate();
    this.#id[slot] = orderId;
    this.#side[slot] = side;
    this.#tick[slot] = tick;
    this.#remaining[slot] = remaining;
    this.#filled[slot] = filled;
    const level = side * this.#ticks + tick;
    const tail = this.#tail[level]!;
    this.#prev[slot] = tail;
    this.#next[slot] = NONE;
    if (tail === NONE) {
      this.#head[level] = slot;
      this.#setBit(side, tick);
      if (side === SIDE_BUY) {
        if (this.#bestBuy === NONE || tick > this.#bestBuy) this.#bestBuy = tick;
      } else if (this.#bestSell === NONE || tick < this.#bestSell) this.#bestSell = tick;
    } else this.#next[tail] = slot;
    this.#tail[level] = slot;
    this.#volume[level] = this.#volume[level]! + remaining;
    this.#count[level]!++;
    this.#index.set(orderId, slot);
    this.#size++;
  }

  /** Takes an order out of its level and the pool (after a full fill or a cancel). */
  #unlink(slot: number): void {
    const side = this.#side[slot]! as SideCode;
    const tick = this.#tick[slot]!;
    const level = side * this.#ticks + tick;
    const prev = this.#prev[slot]!;
    const next = this.#next[slot]!;
    if (prev === NONE) this.#head[level] = next;
    else this.#next[prev] = next;
    if (next === NONE) this.#tail[level] = prev;
    else this.#prev[next] = prev;
    this.#volume[level] = this.#volume[level]! - this.#remaining[slot]!;
    this.#remaining[slot] = 0;
    this.#count[level]!--;
    if (this.#count[level] === 0) {
      this.#volume[level] = 0;
      this.#clearBit(side, tick);
      if (side === SIDE_BUY) {
        if (tick === this.#bestBuy) this.#bestBuy = this.#nextLevel(SIDE_BUY, tick - 1, -1);
      } else if (tick === this.#bestSell) this.#bestSell = this.#nextLevel(SIDE_SELL, tick + 1, 1);
    }
    this.#index.delete(this.#id[slot]!);
    this.#free[this.#freeTop++] = slot;
    this.#size--;
  }

  /** The first non-empty level of `side` from `tick` on, going up (step 1) or down (step -1). */
  #nextLevel(side: SideCode, tick: number, step: 1 | -1): number {
    if (tick < 0 || tick >= this.#ticks) return NONE;
    const base = side * this.#words;
    let word = tick >>> 5;
    if (step === 1) {
      let bits = this.#bits[base + word]! & (0xffffffff << (tick & 31));
      for (;;) {
        if (bits !== 0) return (word << 5) + (31 - Math.clz32(bits & -bits));
        if (++word >= this.#words) return NONE;
        bits = this.#bits[base + word]!;
      }
    }
    let bits = this.#bits[base + word]! & (0xffffffff >>> (31 - (tick & 31)));
    for (;;) {
      if (bits !== 0) return (word << 5) + (31 - Math.clz32(bits));
      if (--word < 0) return NONE;
      bits = this.#bits[base + word]!;
    }
  }

  #setBit(side: SideCode, tick: number): void {
    this.#bits[side * this.#words + (tick >>> 5)]! |= 1 << (tick & 31);
  }

  #clearBit(side: SideCode, tick: number): void {
    this.#bits[side * this.#words + (tick >>> 5)]! &= ~(1 << (tick & 31));
  }

  #tickOf(price: number): number {
    return (price - this.spec.minPrice) / this.spec.tickSize;
  }

  #priceOf(tick: number): number {
    return this.spec.minPrice + tick * this.spec.tickSize;
  }

  #allocate(): number {
    if (this.#freeTop > 0) return this.#free[--this.#freeTop]!;
    if (this.#used === this.#id.length) this.#growPool();
    return this.#used++;
  }

  #growPool(): void {
    const capacity = this.#id.length * 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.#id = grow(this.#id, new Float64Array(capacity));
    this.#side = grow(this.#side, new Uint8Array(capacity));
    this.#tick = grow(this.#tick, new Int32Array(capacity));
    this.#remaining = grow(this.#remaining, new Float64Array(capacity));
    this.#filled = grow(this.#filled, new Float64Array(capacity));
    this.#next = grow(this.#next, new Int32Array(capacity));
    this.#prev = grow(this.#prev, new Int32Array(capacity));
    this.#free = grow(this.#free, new Int32Array(capacity));
  }
}
