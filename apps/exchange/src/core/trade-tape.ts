/**
 * One symbol's trades in time order (time, price, quantity), the input of candles. Kept in
 * parallel arrays of numbers: a trade costs three slots, not an object.
 */
export class TradeTape {
  readonly at: number[] = [];
  readonly price: number[] = [];
  readonly quantity: number[] = [];

  get length(): number {
    return this.at.length;
  }

  record(at: number, price: number, quantity: number): void {
    this.at.push(at);
    this.price.push(price);
    this.quantity.push(quantity);
  }

  /** Index of the first trade at or after `time` (binary search: times never go back). */
  firstAtOrAfter(time: number): number {
    let low = 0;
    let high = this.at.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.at[mid]! < time) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
