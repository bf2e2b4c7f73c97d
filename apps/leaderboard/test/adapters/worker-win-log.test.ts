import { join } from 'node:path';
import { openSqlite } from '@tessera/kit';
import { tempDir } from '@tessera/testkit';
import t from 'tap';
import { WorkerWinLog } from '../../src/adapters/embedded/worker-win-log.ts';
import { embeddedWinLogSuite, win } from './embedded-win-log.suite.ts';

embeddedWinLogSuite(t, 'worker', (options) => new WorkerWinLog(options));

t.test('a copy-back that fails reaches the checkpointer with its batch, which still commits', async (t) => {
  const file = join(tempDir(t, 'tessera-worker-log-'), 'wins.db');
  const reader = openSqlite(file);
  const failures: string[] = [];
  const log = new WorkerWinLog({
    file,
    synchronous: 'normal',
    reader,
    walCheckpointMs: 1_000_000_000,
    walRestarts: { takeRestart: () => true, copyBackFailed: (message) => failures.push(message) },
    failCopyBacks: 'disk I/O error',
  });
  const results = await Promise.all([log.append(win('p1')), log.append(win('p2'))]);
  await log.append(win('p3'));
  t.same(
    results.map((result) => result.win.seq),
    [1, 2],
  );
  t.equal(await log.lastSeq('2026-11'), 3, 'every batch committed');
  t.same(failures, ['disk I/O error', 'disk I/O error'], 'one failure told per batch that copied back');
  await log.close();
  reader.close();
});
