import { ConfigError, readConfig, setting, type ConfigOf, type Setting } from '@tessera/kit';
import { parseCredentials, type FixCredential } from './fix/credentials.ts';
import { checkSpec, MAX_ORDER_QUANTITY, type SymbolSpec } from './core/symbol-spec.ts';
import type { ExchangeRules } from './core/order-manager.ts';
import { SELF_TRADE_MODES } from './core/self-trade.ts';
import { DEFAULT_HOURS, parseHolidays, parseHours, type TradingHours } from './core/trading-hours.ts';

/** A symbol as configured: its tick, lot and price band (the engine's max quantity comes from risk). */
export type SymbolConfig = Omit<SymbolSpec, 'maxQuantity'>;

/** The default band's upper end in ticks: 100,000 ticks is $1,000.00 at a tick of one cent. */
const DEFAULT_BAND_TICKS = 100_000;

/**
 * `EXCHANGE_SYMBOLS`: comma-separated `SYMBOL[:tick[:lot[:min-max]]]`; tick and lot default to 1,
 * the band to 1 tick … 100,000 ticks. Prices are integers in the smallest currency unit.
 * Example: `AAPL:1:1:1-100000,MSFT,BRK.A:100:1:100-90000000`.
 */
export function parseSymbols(text: string): SymbolConfig[] {
  const symbols: SymbolConfig[] = [];
  for (const entry of text.split(',').map((s) => s.trim())) {
    const [symbol, tick = '1', lot = '1', band, extra] = entry.split(':');
    if (symbol === undefined || !/^[A-Z][A-Z0-9.]{0,11}$/.test(symbol)) {
      throw new RangeError(`"${entry}" does not start with a symbol (capitals, digits, dots; at most 12)`);
    }
    if (extra !== undefined) throw new RangeError(`"${entry}" has more than SYMBOL:tick:lot:min-max`);
    if (symbols.some((s) => s.symbol === symbol)) throw new RangeError(`${symbol} is listed twice`);
    const tickSize = Number(tick);
    const [min, max] =
      band === undefined ? [tickSize, DEFAULT_BAND_TICKS * tickSize] : band.split('-').map(Number);
    const spec = { symbol, tickSize, lotSize: Number(lot), minPrice: min ?? NaN, maxPrice: max ?? NaN };
    checkSpec({ ...spec, maxQuantity: 1 });
    symbols.push(spec);
  }
  return symbols;
}

/** A setting parsed by one of the exchange's own syntaxes (the kit's helpers cover the plain kinds). */
function parsed<T>(fallback: string, parse: (text: string) => T, description: string): Setting<T> {
  return {
    describe: `${description}, default ${JSON.stringify(fallback)}`,
    parse(raw, name) {
      const text = raw === undefined || raw === '' ? fallback : raw;
      try {
        return parse(text);
      } catch (error) {
        throw new ConfigError(`${name} ${(error as Error).message} (got ${JSON.stringify(text)})`);
      }
    },
  };
}

/** The exchange's settings; each key is the environment variable. */
export const exchangeSettings = {
  EXCHANGE_SYMBOLS: parsed(
    'AAPL:1:1:1-100000,MSFT:1:1:1-100000',
    parseSymbols,
    'symbols traded: SYMBOL[:tick[:lot[:min-max]]], comma-separated',
  ),
  EXCHANGE_HOURS: parsed<TradingHours>(
    DEFAULT_HOURS,
    parseHours,
    'trading session: "HH:MM-HH:MM <IANA zone> <days>" or "always [<zone>]"',
  ),
  EXCHANGE_HOLIDAYS: parsed('', parseHolidays, 'local dates without a session, YYYY-MM-DD, comma-separated'),
  EXCHANGE_DAILY_CAP: setting.int({
    default: 1_000_000,
    min: 1,
    description: 'shares of one symbol an account may trade (filled plus open) per trading day',
  }),
  EXCHANGE_MAX_ORDER_QUANTITY: setting.int({
    default: 100_000,
    min: 1,
    max: MAX_ORDER_QUANTITY,
    description: 'largest quantity of one order',
  }),
  EXCHANGE_MAX_NOTIONAL: setting.int({
    default: 1_000_000_000,
    min: 1,
    description: 'largest price × quantity of one order, in the smallest currency unit',
  }),
  EXCHANGE_SELF_TRADE: setting.oneOf(SELF_TRADE_MODES, {
    default: 'cancel-resting',
    description:
      "an order that would match the same account's resting order: cancel-resting cancels the resting one, cancel-incoming refuses the new one, allow lets them trade",
  }),
  EXCHANGE_SNAPSHOT_EVERY: setting.int({
    default: 1_000_000,
    min: 1,
    description: 'journal events between two snapshots (bounds the replay at restart)',
  }),
  EXCHANGE_JOURNAL_SYNC: setting.oneOf(['full', 'normal'] as const, {
    default: 'full',
    description:
      'full: every group commit is fsynced (survives power loss); normal: survives a process crash',
  }),
  EXCHANGE_TRADE_LIMIT_PER_MINUTE: setting.int({
    default: 60_000,
    min: 1,
    description:
      'requests per minute per account on each trading route (orders, cancels, account reads; 429 with Retry-After beyond)',
  }),
  EXCHANGE_READ_LIMIT_PER_MINUTE: setting.int({
    default: 120_000,
    min: 1,
    description: 'market data requests per minute per caller',
  }),
  EXCHANGE_WS_MAX_BUFFERED: setting.int({
    default: 1_048_576,
    min: 1_024,
    description:
      'bytes a WebSocket subscriber may leave unsent before it is dropped as a slow consumer (close 4008)',
  }),
  FIX_PORT: setting.int({
    default: 9878,
    min: 0,
    max: 65535,
    description: 'FIX 4.4 acceptor port, opened by the gateway role (0: any free port)',
  }),
  FIX_COMP_ID: setting.string({
    default: 'TESSERA',
    description: "the acceptor's CompID (a client's TargetCompID)",
  }),
  FIX_CREDENTIALS: {
    describe:
      'who may log on over FIX: SenderCompID:password:account, comma-separated; default none (every Logon is refused)',
    parse(raw, name) {
      try {
        return parseCredentials(raw ?? '');
      } catch (error) {
        // Not echoed: the value holds passwords.
        throw new ConfigError(`${name} ${(error as Error).message}`);
      }
    },
  } satisfies Setting<FixCredential[]>,
};

export type ExchangeConfig = ConfigOf<typeof exchangeSettings>;

export function readExchangeConfig(env?: Readonly<Record<string, string | undefined>>): ExchangeConfig {
  return readConfig(exchangeSettings, env);
}

/** The engine's view of a configured symbol: the risk limit on order size is its max quantity. */
export function symbolSpecs(config: ExchangeConfig): SymbolSpec[] {
  return config.EXCHANGE_SYMBOLS.map((s) => ({ ...s, maxQuantity: config.EXCHANGE_MAX_ORDER_QUANTITY }));
}

/** The order manager's rules from the configuration. */
export function exchangeRules(config: ExchangeConfig): ExchangeRules {
  return {
    symbols: symbolSpecs(config),
    limits: {
      dailyCap: config.EXCHANGE_DAILY_CAP,
      maxQuantity: config.EXCHANGE_MAX_ORDER_QUANTITY,
      maxNotional: config.EXCHANGE_MAX_NOTIONAL,
    },
    hours: config.EXCHANGE_HOURS,
    holidays: config.EXCHANGE_HOLIDAYS,
    selfTrade: config.EXCHANGE_SELF_TRADE,
  };
}
