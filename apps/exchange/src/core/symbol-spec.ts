/**
 * What a symbol allows: prices are integer ticks on a grid of `tickSize` within the band
 * [minPrice, maxPrice]; quantities are whole multiples of `lotSize` up to `maxQuantity`.
 * The band also sizes the book's price ladder, so it is required.
 */
export interface SymbolSpec {
  readonly symbol: string;
  readonly tickSize: number;
  readonly lotSize: number;
  readonly minPrice: number;
  readonly maxPrice: number;
  readonly maxQuantity: number;
}

/** The most price levels one book holds (per side): 2^22 ticks, 4 MiB of ladder per array. */
export const MAX_LADDER_TICKS = 1 << 22;

/**
 * The largest `maxQuantity` a symbol may set. A level's volume is a sum of resting quantities
 * kept in a double; the pool holds fewer than 2^31 orders (Int32 slots), so with orders of at
 * most 2^22 a volume never passes 2^53 and stays exact.
 */
export const MAX_ORDER_QUANTITY = 2 ** 22;

export function checkSpec(spec: SymbolSpec): void {
  const ints = [spec.tickSize, spec.lotSize, spec.minPrice, spec.maxPrice, spec.maxQuantity];
  if (!ints.every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new RangeError(`symbol ${spec.symbol}: tick, lot, band and max quantity must be positive integers`);
  }
  if (
    spec.minPrice > spec.maxPrice ||
    spec.minPrice % spec.tickSize !== 0 ||
    spec.maxPrice % spec.tickSize !== 0
  ) {
    throw new RangeError(`symbol ${spec.symbol}: the price band must be on the tick grid, min <= max`);
  }
  if (spec.maxQuantity > MAX_ORDER_QUANTITY) {
    throw new RangeError(
      `symbol ${spec.symbol}: maxQuantity above ${MAX_ORDER_QUANTITY} would risk inexact volumes`,
    );
  }
  if ((spec.maxPrice - spec.minPrice) / spec.tickSize + 1 > MAX_LADDER_TICKS) {
    throw new RangeError(`symbol ${spec.symbol}: the price band spans more than ${MAX_LADDER_TICKS} ticks`);
  }
}

/** INVALID_ORDER's rule for a price: a positive safe integer on the tick grid, inside the band. */
export function validPrice(spec: SymbolSpec, price: number): boolean {
  return (
    Number.isSafeInteger(price) &&
    price >= spec.minPrice &&
    price <= spec.maxPrice &&
    price % spec.tickSize === 0
  );
}

/** INVALID_ORDER's rule for a quantity: a positive safe integer, whole lots, at most the maximum. */
export function validQuantity(spec: SymbolSpec, quantity: number): boolean {
  return (
    Number.isSafeInteger(quantity) &&
    quantity > 0 &&
    quantity <= spec.maxQuantity &&
    quantity % spec.lotSize === 0
  );
}
