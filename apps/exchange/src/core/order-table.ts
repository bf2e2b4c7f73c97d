/**
 * The open orders by id (the order manager's `orders`): pages of 4,096 slots, found by page number
 * in a Map. Ids are the sequencer's, dense and rising, so the open orders fill few pages and that
 * Map stays small and in cache; a Map of every open order took a probe through a table of
 * hundreds of thousands of entries (a cache miss or two) on every insert, read and delete. A page
 * goes once its last order has left. Iteration is by id: for the sequencer's ids, the order the
 * orders came in.
 */
const PAGE_SIZE = 4096;

interface Page<T> {
  readonly slots: Array<T | undefined>;
  /** How many slots hold an order. */
  count: number;
}

const isId = (id: number): boolean => Number.isSafeInteger(id) && id >= 0;

export class OrderTable<T> {
  readonly #pages = new Map<number, Page<T>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: number): T | undefined {
    if (!isId(id)) return undefined;
    const number = Math.floor(id / PAGE_SIZE);
    return this.#pages.get(number)?.slots[id - number * PAGE_SIZE];
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Puts `value` under `id`, a non-negative safe integer. */
  set(id: number, value: T): void {
    if (!isId(id)) throw new RangeError(`order id ${id} is not a non-negative integer`);
    const number = Math.floor(id / PAGE_SIZE);
    let page = this.#pages.get(number);
    if (page === undefined) {
      // Filled at once: a packed array stays packed (holes make every read slower).
      page = { slots: new Array<T | undefined>(PAGE_SIZE).fill(undefined), count: 0 };
      this.#pages.set(number, page);
    }
    const slot = id - number * PAGE_SIZE;
    if (page.slots[slot] === undefined) {
      page.count++;
      this.#size++;
    }
    page.slots[slot] = value;
  }

  delete(id: number): boolean {
    if (!isId(id)) return false;
    const number = Math.floor(id / PAGE_SIZE);
    const page = this.#pages.get(number);
    const slot = id - number * PAGE_SIZE;
    if (page === undefined || page.slots[slot] === undefined) return false;
    page.slots[slot] = undefined;
    this.#size--;
    if (--page.count === 0) this.#pages.delete(number);
    return true;
  }

  /** The orders by id, lowest first. */
  *values(): IterableIterator<T> {
    const numbers = [...this.#pages.keys()].sort((a, b) => a - b);
    for (const number of numbers) {
      for (const value of this.#pages.get(number)!.slots) if (value !== undefined) yield value;
    }
  }
}
