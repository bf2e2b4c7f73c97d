import t from 'tap';
import { checkOrderShape } from '../../src/core/order-checks.ts';

const spec = { symbol: 'MSFT', tickSize: 5, lotSize: 10, minPrice: 5, maxPrice: 1_000, maxQuantity: 100 };
const request = {
  symbol: 'MSFT',
  side: 'buy' as const,
  price: 500,
  quantity: 20,
  orderType: 'limit',
};
/** `null` stands for a symbol that is not configured (undefined would take the default). */
const code = (changes: Record<string, unknown>, s: typeof spec | null = spec) =>
  checkOrderShape(s ?? undefined, { ...request, ...changes })?.code;

t.test('each field, in the order the gateway checks them', async (t) => {
  t.equal(code({}), undefined);
  t.equal(
    code({ orderType: 'market', symbol: 'TSLA' }, null),
    'EX_ORDER_TYPE_UNSUPPORTED',
    'the order type first',
  );
  t.equal(code({ symbol: 'TSLA' }, null), 'EX_UNKNOWN_SYMBOL');
  t.equal(code({ side: 'hold' }), 'EX_INVALID_ORDER');
  for (const price of [0, 3, 502, 1_005, 500.5, Number.NaN])
    t.equal(code({ price }), 'EX_INVALID_PRICE', `price ${price}`);
  for (const quantity of [0, -10, 15, 10.5])
    t.equal(code({ quantity }), 'EX_INVALID_QUANTITY', `quantity ${quantity}`);
  t.equal(code({ quantity: 1_000 }), undefined, 'above the maximum is risk’s answer, not the gateway’s');
  t.same(checkOrderShape(spec, { ...request, price: 3 })?.extra, {
    tickSize: 5,
    minPrice: 5,
    maxPrice: 1_000,
  });
});
