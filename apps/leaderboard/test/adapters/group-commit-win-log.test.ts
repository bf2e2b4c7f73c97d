import { fdatasync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { GroupCommitWinLog } from '../../src/adapters/embedded/group-commit-win-log.ts';
import { embeddedWinLogSuite, win } from './embedded-win-log.suite.ts';

embeddedWinLogSuite(t, (options) => new GroupCommitWinLog(options));

t.test('a failed fdatasync rejects the appends waiting for it, and the log takes no more', async (t) => {
  const file = join(tempDir(t, 'tessera-group-log-'), 'wins.db');
  const reader = openSqlite(file);
  let fail = false;
  const log = new GroupCommitWinLog({
    file,
    synchronous: 'full',
    reader,
    sync: (fd, done) =>
      fail ? setImmediate(() => done(Object.assign(new Error('EIO'), { code: 'EIO' }))) : fdatasync(fd, done),
  });
  t.teardown(async () => {
    await log.close();
    reader.close();
  });
  t.equal((await log.append(win('p1'))).win.seq, 1);
  t.equal(log.refusing(), undefined, 'takes appends while its syncs succeed');
  fail = true;
  const results = await Promise.allSettled([log.append(win('p2')), log.append(win('p3'))]);
  t.same(
    results.map((result) => result.status),
    ['rejected', 'rejected'],
  );
  fail = false;
  await t.rejects(log.append(win('p4')), /fdatasync of the WAL failed/);
  t.match(log.refusing(), /fdatasync of the WAL failed; no more commits: EIO/, 'says why, for readiness');
});
