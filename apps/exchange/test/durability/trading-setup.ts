import { openSqlite } from '@tessera/kit';
import type { FlowOptions } from '../../bench/order-flow.ts';
import { SqliteJournal } from '../../src/adapters/embedded/sqlite-journal.ts';
import { ExchangeService } from '../../src/service.ts';
import { rules, T0 } from '../core/exchange-rules.ts';

/** The flow the killed trader sends and the check replays: small prices, so that orders cross. */
export const FLOW: FlowOptions = { seed: 11, accounts: 30, symbols: ['AAPL', 'MSFT'], mid: 500 };

/** Requests between the trader's awaits of a group commit. */
export const BATCH = 50;

/**
 * A service on a journal file (or `:memory:`) with a clock that ticks one millisecond per
 * reading from T0: the same requests in the same order give the same commands, times included.
 */
export function traderService(
  file: string,
  snapshotEvery: number,
): { service: ExchangeService; journal: SqliteJournal } {
  const journal = new SqliteJournal(openSqlite(file, { synchronous: 'normal' }));
  let now = T0;
  const service = ExchangeService.open({
    rules: rules({ limits: { dailyCap: 1_000_000, maxQuantity: 10_000, maxNotional: 1_000_000_000 } }),
    journal,
    now: () => now++,
    snapshotEvery,
  });
  return { service, journal };
}
