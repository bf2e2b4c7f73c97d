import { grown, permuted } from './typed-arrays.ts';

/**
 * Each player's block in the rank order (`blockOf`), by handle: 2 bytes while there are fewer
 * than 65,536 blocks and no waiting player parks a larger value there (see BlockStore.park),
 * else 4 (`widen`). The ranking keeps it in the id table's slots (SlotWords), so that the probe
 * that finds a player brings their block id in the same cache line; a rank order on its own
 * (tests) keeps it in an array (ArrayBlockIds).
 */
export interface BlockIds {
  get(handle: number): number;
  set(handle: number, id: number): void;
  /** Room for handles below `length` (`growth`: as in `grown`). */
  ensure(length: number, growth?: number): void;
  readonly wide: boolean;
  /** 4 bytes a handle from now on, keeping every value. */
  widen(): void;
  /** 2 bytes a handle again: every value that matters is below 65,536 (see BlockStore.unpark). */
  narrow(): void;
  /** The handles moved to `map[handle]` in `capacity` slots (-1: none): the values follow. */
  renumber(map: Int32Array, capacity: number): void;
  /** Bytes held here alone (not those shared with the id table's keys). */
  readonly byteLength: number;
}

/** Block ids in an array of their own, 2 or 4 bytes an entry. */
export class ArrayBlockIds implements BlockIds {
  #ids: Uint16Array | Uint32Array = new Uint16Array(1024);

  get(handle: number): number {
    return this.#ids[handle]!;
  }

  set(handle: number, id: number): void {
    this.#ids[handle] = id;
  }

  ensure(length: number, growth?: number): void {
    this.#ids = grown(this.#ids, length, growth);
  }

  get wide(): boolean {
    return this.#ids instanceof Uint32Array;
  }

  widen(): void {
    if (this.#ids instanceof Uint16Array) this.#ids = Uint32Array.from(this.#ids);
  }

  narrow(): void {
    if (this.#ids instanceof Uint32Array) this.#ids = Uint16Array.from(this.#ids);
  }

  renumber(map: Int32Array, capacity: number): void {
    this.#ids = permuted(this.#ids, map, capacity);
  }

  get byteLength(): number {
    return this.#ids.byteLength;
  }
}
