import t from 'tap';
import { ConfigError } from '@tessera/kit';
import { exchangeRules, parseSymbols, readExchangeConfig, symbolSpecs } from '../src/config.ts';

t.test(
  'defaults: AAPL and MSFT at tick 1 and lot 1, the New York session, the spec’s daily cap',
  async (t) => {
    const config = readExchangeConfig({});
    t.same(config.EXCHANGE_SYMBOLS, [
      { symbol: 'AAPL', tickSize: 1, lotSize: 1, minPrice: 1, maxPrice: 100_000 },
      { symbol: 'MSFT', tickSize: 1, lotSize: 1, minPrice: 1, maxPrice: 100_000 },
    ]);
    t.same(config.EXCHANGE_HOURS, {
      kind: 'session',
      timeZone: 'America/New_York',
      open: 570,
      close: 960,
      days: [1, 2, 3, 4, 5],
    });
    t.same(config.EXCHANGE_HOLIDAYS, []);
    t.equal(config.EXCHANGE_DAILY_CAP, 1_000_000);
    t.equal(config.EXCHANGE_SELF_TRADE, 'cancel-resting');
    t.equal(config.FIX_PORT, 9878);
    t.equal(config.EXCHANGE_JOURNAL_SYNC, 'full');
    const rules = exchangeRules(config);
    t.same(rules.limits, { dailyCap: 1_000_000, maxQuantity: 100_000, maxNotional: 1_000_000_000 });
    t.equal(symbolSpecs(config)[0]!.maxQuantity, 100_000, 'the engine refuses what risk refuses');
  },
);

t.test('the symbols syntax', async (t) => {
  t.same(parseSymbols('AAPL:1:1:1-100000,MSFT,BRK.A:100:1:100-90000000, TSLA:5:10'), [
    { symbol: 'AAPL', tickSize: 1, lotSize: 1, minPrice: 1, maxPrice: 100_000 },
    { symbol: 'MSFT', tickSize: 1, lotSize: 1, minPrice: 1, maxPrice: 100_000 },
    { symbol: 'BRK.A', tickSize: 100, lotSize: 1, minPrice: 100, maxPrice: 90_000_000 },
    { symbol: 'TSLA', tickSize: 5, lotSize: 10, minPrice: 5, maxPrice: 500_000 },
  ]);
  t.throws(() => parseSymbols('aapl'), /does not start with a symbol/);
  t.throws(() => parseSymbols('AAPL,AAPL'), /listed twice/);
  t.throws(() => parseSymbols('AAPL:0'), /positive integers/);
  t.throws(() => parseSymbols('AAPL:5:1:3-100'), /tick grid/);
  t.throws(() => parseSymbols('AAPL:1:1:1-100:9'), /more than/);
  t.throws(() => parseSymbols('AAPL:1:1:1-99999999'), /spans more than/);
});

t.test('every bad variable is reported at once, by name', async (t) => {
  try {
    readExchangeConfig({
      EXCHANGE_SYMBOLS: 'aapl',
      EXCHANGE_HOURS: '9-5',
      EXCHANGE_HOLIDAYS: 'tomorrow',
      EXCHANGE_DAILY_CAP: '0',
      EXCHANGE_MAX_ORDER_QUANTITY: String(2 ** 23),
      EXCHANGE_SELF_TRADE: 'maybe',
      FIX_PORT: '70000',
    });
    t.fail('accepted');
  } catch (error) {
    t.type(error, ConfigError);
    const message = (error as Error).message;
    for (const name of [
      'EXCHANGE_SYMBOLS',
      'EXCHANGE_HOURS',
      'EXCHANGE_HOLIDAYS',
      'EXCHANGE_DAILY_CAP',
      'EXCHANGE_MAX_ORDER_QUANTITY',
      'EXCHANGE_SELF_TRADE',
      'FIX_PORT',
    ]) {
      t.match(message, new RegExp(`^  ${name} `, 'm'), name);
    }
  }
});

t.test('"always" for make run; holidays; other modes', async (t) => {
  const config = readExchangeConfig({
    EXCHANGE_HOURS: 'always',
    EXCHANGE_HOLIDAYS: '2026-12-25,2027-01-01',
    EXCHANGE_SELF_TRADE: 'allow',
  });
  t.same(config.EXCHANGE_HOURS, { kind: 'always', timeZone: 'America/New_York' });
  t.same(config.EXCHANGE_HOLIDAYS, ['2026-12-25', '2027-01-01']);
  t.equal(config.EXCHANGE_SELF_TRADE, 'allow');
});
