// The embedded adapters' win log asks its own WalCheckpointer when to copy back (GroupCommitWinLog's
// default walRestarts; review W2): without that the writer is never asked, and under steady wins
// the WAL grows without end. The race the rule answers is set up by hand on a connection of the
// test's: a write begun before a checkpoint round copies the WAL whole, committed after it, leaves
// frames that SQLite will not start the WAL over for; only the writer's copy-back, asked by the
// checkpointer, lets its next batch do it.
import { join } from 'node:path';
import { createLogger, openSqlite, platformSettings, readConfig } from '@tessera/kit';
import { pollUntil, tempDir, walRestarts } from '@tessera/testkit';
import t from 'tap';
import { selectAdapters } from '../../src/adapters/select.ts';
import { GroupCommitWinLog } from '../../src/adapters/embedded/group-commit-win-log.ts';
import { leaderboardSettings } from '../../src/config.ts';

/** What the checkpointer asks for: a WAL longer than its 1,024 frames (4 KiB pages). */
const LONG_WAL_FRAMES = 1024;

t.test("the win log copies back when the embedded adapters' checkpointer asks", async (t) => {
  const dir = tempDir(t, 'lb-select-wal-');
  const platform = readConfig(platformSettings, { DATA_DIR: dir, DATA_FSYNC: 'true' });
  const ports = await selectAdapters(
    readConfig(leaderboardSettings, {}),
    platform,
    createLogger({ level: 'silent', name: 'test' }),
  );
  t.teardown(() => ports.close());
  const winLog = ports.winLog;
  if (!(winLog instanceof GroupCommitWinLog)) throw new Error('the embedded win log is a GroupCommitWinLog');
  const file = join(dir, 'leaderboard', 'wins.db');
  const other = openSqlite(file, { synchronous: 'normal' });
  other.exec('PRAGMA wal_autocheckpoint = 0');
  other.exec('CREATE TABLE filler (b BLOB)');
  other.exec(`INSERT INTO filler VALUES (zeroblob(${(LONG_WAL_FRAMES + 200) * 4096}))`);
  other.exec('BEGIN IMMEDIATE');
  other.exec("INSERT INTO filler VALUES (x'00')");
  // The checkpointer's round (every second) copies the long WAL whole.
  await pollUntil(
    'a round that copied the long WAL whole',
    () => {
      const { frames, copied } = winLog.walCheckpoints;
      return Promise.resolve(frames >= LONG_WAL_FRAMES && copied === frames);
    },
    { ms: 30_000, intervalMs: 20, describe: () => Promise.resolve(JSON.stringify(winLog.walCheckpoints)) },
  );
  other.exec('COMMIT');
  other.close();

  const before = walRestarts(file);
  await winLog.append({ period: '2026-11', userId: 'u1', points: 1, at: 1 });
  t.equal(walRestarts(file), before + 1, 'the batch copied back first and started the WAL over');
});
