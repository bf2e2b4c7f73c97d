/**
 * Which adapters implement the exchange's ports, from the settings, here and nowhere else. Today
 * the journal is embedded (node:sqlite under DATA_DIR/exchange); the per-symbol JetStream streams
 * of distributed mode will be chosen here by NATS_URL.
 */
import { join } from 'node:path';
import { openSqlite, type PlatformConfig } from '@tessera/kit';
import { WalCheckpointer, type WalCheckpoints } from '@tessera/kit/sqlite';
import type { ExchangeConfig } from '../config.ts';
import type { Journal } from '../ports.ts';
import { SqliteJournal } from './embedded/sqlite-journal.ts';
import { WorkerJournal } from './embedded/worker-journal.ts';

export interface ExchangeAdapters {
  readonly journal: Journal;
  /** How the journal's WAL checkpoints go (for /metrics). */
  readonly journalWal: () => WalCheckpoints;
  /** Closes what the adapters opened, after the journal's last commit. */
  close(): Promise<void>;
}

export function selectAdapters(config: ExchangeConfig, platform: PlatformConfig): ExchangeAdapters {
  const file = join(platform.DATA_DIR, 'exchange', 'journal.db');
  const synchronous = platform.DATA_FSYNC ? config.EXCHANGE_JOURNAL_SYNC : 'normal';
  const db = openSqlite(file, { synchronous });
  // The WAL is copied back into the file on a thread of its own, never inside a group commit
  // (the writer thread turns its automatic checkpoint off; the inline writer is this connection);
  // under steady orders a batch now and then first copies back the last frames, so that the WAL
  // starts over (WalCheckpointer#takeRestart).
  if (synchronous !== 'full') db.exec('PRAGMA wal_autocheckpoint = 0');
  const checkpointer = new WalCheckpointer(file, synchronous, 1000);
  // A commit that waits for the disk (fsync) goes to the journal's writer thread, so the event
  // loop keeps matching meanwhile; one that does not (synchronous=normal) is cheaper written
  // inline than handed over (the REST benchmark measured both: README, "Exchange over REST").
  const journal =
    synchronous === 'full'
      ? new WorkerJournal({ file, synchronous, reader: db, walRestarts: checkpointer })
      : new SqliteJournal(db, checkpointer);
  return {
    journal,
    journalWal: () => checkpointer.stats,
    async close() {
      await journal.close();
      await checkpointer.close();
      db.close();
    },
  };
}
