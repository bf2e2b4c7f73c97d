// The port suites against the embedded adapters: the same contract the distributed adapters pass
// against the real servers (test/adapters/{nats,redis,cassandra}).
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t, { type Test } from 'tap';
import { CachedProfileStore } from '../../src/adapters/cache/cached-profile-store.ts';
import { MemoryRankingStore } from '../../src/adapters/embedded/memory-ranking-store.ts';
import { SqliteArchiveStore } from '../../src/adapters/embedded/sqlite-archive-store.ts';
import { SqliteProfileStore } from '../../src/adapters/embedded/sqlite-profile-store.ts';
import { GroupCommitWinLog } from '../../src/adapters/embedded/group-commit-win-log.ts';
import { archiveStoreSuite } from './archive-store.suite.ts';
import { profileStoreSuite } from './profile-store.suite.ts';
import { rankingStoreSuite } from './ranking-store.suite.ts';
import { winLogSuite } from './win-log.suite.ts';

function database(t: Test, name: string) {
  const db = openSqlite(join(tempDir(t, 'tessera-ports-'), name));
  t.teardown(() => db.close());
  return db;
}

t.test('WinLog: GroupCommitWinLog', async (t) => {
  winLogSuite(t, async (t) => {
    const file = join(tempDir(t, 'tessera-ports-'), 'wins.db');
    const reader = openSqlite(file);
    const log = new GroupCommitWinLog({ file, synchronous: 'full', reader });
    t.teardown(async () => {
      await log.close();
      reader.close();
    });
    return log;
  });
});

t.test('RankingStore: MemoryRankingStore', async (t) => {
  rankingStoreSuite(t, async (_t, tieBreak) => new MemoryRankingStore(tieBreak));
});

t.test('ArchiveStore: SqliteArchiveStore', async (t) => {
  archiveStoreSuite(t, async (t) => new SqliteArchiveStore(database(t, 'history.db')));
});

t.test('ProfileStore: SqliteProfileStore, and behind the LRU cache', async (t) => {
  profileStoreSuite(t, async (t) => new SqliteProfileStore(database(t, 'profiles.db')));
  profileStoreSuite(
    t,
    async (t) => new CachedProfileStore(new SqliteProfileStore(database(t, 'cached.db')), 100),
  );
});
