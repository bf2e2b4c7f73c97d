import { openSqlite } from '@tessera/kit';
import { SqliteJournal } from '../../src/adapters/embedded/sqlite-journal.ts';
import { ExchangeService } from '../../src/service.ts';
import { rules, T0 } from '../core/exchange-rules.ts';

/**
 * The crash test's exchange on a journal file (or `:memory:`), with a clock that ticks one
 * millisecond per reading from T0, so the same commands get the same times in any process: the
 * state digest of the crashed venue can be computed again in the test.
 */
export function crashService(file: string): { service: ExchangeService; journal: SqliteJournal } {
  const journal = new SqliteJournal(openSqlite(file, { synchronous: 'normal' }));
  let now = T0;
  const service = ExchangeService.open({
    rules: rules({ limits: { dailyCap: 1_000_000, maxQuantity: 10_000, maxNotional: 100_000_000 } }),
    journal,
    now: () => now++,
  });
  return { service, journal };
}

/** The two commands of the first start (sequence numbers 1 and 2). */
export async function fundCrashAccounts(service: ExchangeService): Promise<void> {
  await service.deposit('alice', 1_000_000);
  await service.deposit('bob', 0, { AAPL: 1_000 });
}
