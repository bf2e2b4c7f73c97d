/** The service tests' journal files and services (service.test.ts, service-durability.test.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Test } from 'tap';
import { openSqlite, ProblemError } from '@tessera/kit';
import { SqliteJournal } from '../src/adapters/embedded/sqlite-journal.ts';
import { ExchangeService } from '../src/service.ts';
import { rules, T0 } from './core/exchange-rules.ts';

export function tempFile(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ex-service-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'exchange.db');
}

/** A service on a journal file; `now` ticks a millisecond per reading, from T0. */
export function open(
  file: string,
  snapshotEvery = 1_000_000,
): { service: ExchangeService; db: DatabaseSync; journal: SqliteJournal } {
  const db = openSqlite(file, { synchronous: 'normal' });
  let now = T0;
  const journal = new SqliteJournal(db);
  const service = ExchangeService.open({ rules: rules(), journal, now: () => now++, snapshotEvery });
  return { service, db, journal };
}

export async function refused(promise: Promise<unknown>): Promise<{ code: string; status: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error('not refused');
}
