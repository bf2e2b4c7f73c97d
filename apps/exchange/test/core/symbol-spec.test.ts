import t from 'tap';
import { checkSpec, MAX_ORDER_QUANTITY, validPrice, validQuantity } from '../../src/core/symbol-spec.ts';
import { SPEC } from './helpers.ts';

t.test('a symbol spec must be positive integers with the band on the tick grid', async (t) => {
  t.doesNotThrow(() => checkSpec(SPEC));
  const bad = [
    { tickSize: 0 },
    { lotSize: 1.5 },
    { minPrice: -5 },
    { minPrice: 2_005 }, // above maxPrice
    { minPrice: 1_002 }, // off the grid
    { maxQuantity: MAX_ORDER_QUANTITY + 1 }, // volumes could lose exactness
    { tickSize: 1, minPrice: 1, maxPrice: 2 ** 23 }, // ladder too wide
  ];
  for (const change of bad)
    t.throws(() => checkSpec({ ...SPEC, ...change }), RangeError, JSON.stringify(change));
});

t.test('prices and quantities are exact integers on the grid, inside the limits', async (t) => {
  t.ok(validPrice(SPEC, 1_000) && validPrice(SPEC, 2_000) && validPrice(SPEC, 1_505));
  for (const price of [995, 2_005, 1_502, 1_500.5, Number.NaN, Infinity, 2 ** 53]) {
    t.notOk(validPrice(SPEC, price), `price ${price}`);
  }
  t.ok(validQuantity(SPEC, 10) && validQuantity(SPEC, 1_000_000));
  for (const quantity of [0, -10, 15, 10.5, 1_000_010, Number.NaN, 2 ** 60]) {
    t.notOk(validQuantity(SPEC, quantity), `quantity ${quantity}`);
  }
});
