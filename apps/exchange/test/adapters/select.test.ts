import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import t from 'tap';
import { readConfig, platformSettings } from '@tessera/kit';
import { selectAdapters } from '../../src/adapters/select.ts';
import { SqliteJournal } from '../../src/adapters/embedded/sqlite-journal.ts';
import { WorkerJournal } from '../../src/adapters/embedded/worker-journal.ts';
import { readExchangeConfig } from '../../src/config.ts';

t.test('fsynced commits go to the writer thread; others are written inline', async (t) => {
  const dir = mkdtempSync(`${tmpdir()}/ex-select-`);
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const cases = [
    [{ DATA_FSYNC: 'true' }, { EXCHANGE_JOURNAL_SYNC: 'full' }, WorkerJournal],
    [{ DATA_FSYNC: 'true' }, { EXCHANGE_JOURNAL_SYNC: 'normal' }, SqliteJournal],
    [{ DATA_FSYNC: 'false' }, { EXCHANGE_JOURNAL_SYNC: 'full' }, SqliteJournal],
  ] as const;
  for (const [platformEnv, exchangeEnv, kind] of cases) {
    const platform = readConfig(platformSettings, { DATA_DIR: dir, ...platformEnv });
    const adapters = selectAdapters(readExchangeConfig(exchangeEnv), platform);
    t.ok(
      adapters.journal instanceof kind,
      `${JSON.stringify({ ...platformEnv, ...exchangeEnv })}: ${kind.name}`,
    );
    await adapters.close();
  }
});
