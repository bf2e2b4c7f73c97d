/**
 * Order id → pool slot, for O(1) cancel. Open addressing with linear probing over typed arrays
 * and backward-shift deletion (no tombstones, so lookups stay short under constant churn).
 * Ids are non-negative safe integers.
 */
const EMPTY = -1;

export class OrderIndex {
  #keys = new Float64Array(1 << 12);
  #values = new Int32Array(1 << 12).fill(EMPTY);
  #count = 0;

  get size(): number {
    return this.#count;
  }

  get(id: number): number {
    const mask = this.#values.length - 1;
    for (let i = hash(id) & mask; ; i = (i + 1) & mask) {
      const value = this.#values[i]!;
      if (value === EMPTY) return EMPTY;
      if (this.#keys[i] === id) return value;
    }
  }

  set(id: number, slot: number): void {
    if ((this.#count + 1) * 2 > this.#values.length) this.#resize(this.#values.length * 2);
    const mask = this.#values.length - 1;
    let i = hash(id) & mask;
    while (this.#values[i] !== EMPTY && this.#keys[i] !== id) i = (i + 1) & mask;
    if (this.#values[i] === EMPTY) this.#count++;
    this.#keys[i] = id;
    this.#values[i] = slot;
  }

  delete(id: number): void {
    const mask = this.#values.length - 1;
    let i = hash(id) & mask;
    for (; ; i = (i + 1) & mask) {
      if (this.#values[i] === EMPTY) return;
      if (this.#keys[i] === id) break;
    }
    // Shift back every later entry of the cluster whose home is not between the hole and itself.
    for (let j = (i + 1) & mask; this.#values[j] !== EMPTY; j = (j + 1) & mask) {
      const home = hash(this.#keys[j]!) & mask;
      const between = i <= j ? i < home && home <= j : i < home || home <= j;
      if (!between) {
        this.#keys[i] = this.#keys[j]!;
        this.#values[i] = this.#values[j]!;
        i = j;
      }
    }
    this.#values[i] = EMPTY;
    this.#count--;
  }

  #resize(capacity: number): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Float64Array(capacity);
    this.#values = new Int32Array(capacity).fill(EMPTY);
    this.#count = 0;
    for (let i = 0; i < values.length; i++) if (values[i] !== EMPTY) this.set(keys[i]!, values[i]!);
  }
}

function hash(id: number): number {
  const lo = id >>> 0;
  const hi = (id / 4294967296) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
