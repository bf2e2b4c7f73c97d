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

t.test('appendThen: the same answers as append, told once; a closed log refuses later', async (t) => {
  const file = join(tempDir(t, 'tessera-group-log-'), 'wins.db');
  const reader = openSqlite(file);
  const log = new GroupCommitWinLog({ file, synchronous: 'full', reader });
  t.teardown(() => reader.close());
  const appendThen = (newWin: ReturnType<typeof win>) =>
    new Promise<unknown>((resolve) => {
      let told = 0;
      log.appendThen(newWin, (error, result) => resolve([++told, error, result]));
      t.equal(told, 0, 'not told before appendThen returns');
    });
  const [first, promised] = await Promise.all([appendThen(win('p1', 1, 'm1')), log.append(win('p2'))]);
  t.match(first, [1, undefined, { win: { seq: 1, userId: 'p1', matchId: 'm1' }, duplicate: false }]);
  t.match(promised, { win: { seq: 2, userId: 'p2' }, duplicate: false }, 'in the same group as a promise');
  t.match(await appendThen(win('p1', 1, 'm1')), [1, undefined, { win: { seq: 1 }, duplicate: true }]);
  await log.close();
  t.match(await appendThen(win('p3')), [1, { message: /closed/ }, undefined]);
});
