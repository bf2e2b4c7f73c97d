// selectAdapters hands the journal's WalCheckpointer to the journal as its walRestarts (review W2):
// without that wiring the journal is never asked to copy back, and under steady orders the WAL
// grows without end. The race the rule answers is set up by hand on a connection of the test's:
// a write begun before a checkpoint round copies the WAL whole, committed after it, leaves frames
// that SQLite will not start the WAL over for; only the journal's copy-back, asked by the
// checkpointer, lets its next batch do it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openSqlite, platformSettings, readConfig } from '@tessera/kit';
import { pollUntil, walRestarts } from '@tessera/testkit';
import { selectAdapters } from '../../src/adapters/select.ts';
import { readExchangeConfig } from '../../src/config.ts';
import { deposit } from './embedded/journal-fixtures.ts';

/** What the checkpointer asks for: a WAL longer than its 1,024 frames (4 KiB pages). */
const LONG_WAL_BYTES = 5_000_000;

for (const sync of ['full', 'normal'] as const) {
  t.test(`${sync}: the journal copies back when the adapters' checkpointer asks`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ex-select-wal-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const platform = readConfig(platformSettings, { DATA_DIR: dir, DATA_FSYNC: 'true' });
    const adapters = selectAdapters(readExchangeConfig({ EXCHANGE_JOURNAL_SYNC: sync }), platform);
    const file = join(dir, 'exchange', 'journal.db');
    const other = openSqlite(file, { synchronous: 'normal' });
    other.exec('PRAGMA wal_autocheckpoint = 0');
    other.exec('CREATE TABLE filler (b BLOB)');
    other.exec(`INSERT INTO filler VALUES (zeroblob(${LONG_WAL_BYTES}))`);
    other.exec('BEGIN IMMEDIATE');
    other.exec("INSERT INTO filler VALUES (x'00')");
    // The checkpointer's round (every second) copies the long WAL whole into the file...
    await pollUntil(
      'a round to copy the WAL back',
      () => Promise.resolve(statSync(file).size >= LONG_WAL_BYTES),
      {
        ms: 30_000,
        intervalMs: 20,
      },
    );
    // ...and a report of a round that copied it whole reaches the checkpointer (any round from then
    // on copies everything committed).
    await pollUntil(
      'the checkpointer to hear of a round that copied the long WAL whole',
      () => {
        const { frames, copied } = adapters.journalWal();
        return Promise.resolve(frames >= 1024 && copied === frames);
      },
      { ms: 30_000, intervalMs: 20 },
    );
    other.exec('COMMIT');
    other.close();

    const before = walRestarts(file);
    adapters.journal.append(1, deposit(1));
    await adapters.journal.commit();
    t.equal(walRestarts(file), before + 1, 'the batch copied back first and started the WAL over');
    await adapters.close();
  });
}
