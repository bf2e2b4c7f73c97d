/**
 * Which adapters implement the exchange's ports, from the settings, here and nowhere else. Today
 * the journal is embedded (node:sqlite under DATA_DIR/exchange); the per-symbol JetStream streams
 * of distributed mode will be chosen here by NATS_URL.
 */
import { join } from 'node:path';
import { openSqlite, type PlatformConfig } from '@tessera/kit';
import type { ExchangeConfig } from '../config.ts';
import type { Journal } from '../ports.ts';
import { SqliteJournal } from './embedded/sqlite-journal.ts';

export interface ExchangeAdapters {
  readonly journal: Journal;
  /** Closes what the adapters opened, after the journal's last commit. */
  close(): Promise<void>;
}

export function selectAdapters(config: ExchangeConfig, platform: PlatformConfig): ExchangeAdapters {
  const db = openSqlite(join(platform.DATA_DIR, 'exchange', 'journal.db'), {
    synchronous: platform.DATA_FSYNC ? config.EXCHANGE_JOURNAL_SYNC : 'normal',
  });
  const journal = new SqliteJournal(db);
  return {
    journal,
    async close() {
      await journal.close();
      db.close();
    },
  };
}
