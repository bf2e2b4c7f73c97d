// What the embedded win log promises (GroupCommitWinLog: its group commit on the event loop,
// fdatasync on the pool), as a suite a test file runs against the log it opens.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '@tessera/kit';
import { pollUntil, tempDir, waitForExit } from '@tessera/testkit';
import type { DatabaseSync } from 'node:sqlite';
import type { WalCheckpoints, WalRestarts } from '@tessera/kit/sqlite';
import type { Test } from 'tap';
import type { WinLog } from '../../src/ports.ts';

export const win = (userId: string, points = 1, matchId?: string) => ({
  period: '2026-11',
  userId,
  points,
  matchId,
  at: 1,
});

export interface EmbeddedWinLogOptions {
  readonly file: string;
  readonly synchronous: 'full' | 'normal';
  readonly reader: DatabaseSync;
  readonly walCheckpointMs?: number;
  readonly walRestarts?: WalRestarts;
}

export type EmbeddedWinLog = WinLog & { readonly walCheckpoints: WalCheckpoints };

export function embeddedWinLogSuite(t: Test, open: (options: EmbeddedWinLogOptions) => EmbeddedWinLog): void {
  function openLog(t: Test, file = join(tempDir(t, 'tessera-win-log-'), 'wins.db')) {
    const reader = openSqlite(file);
    const log = open({ file, synchronous: 'full', reader });
    t.teardown(async () => {
      await log.close();
      reader.close();
    });
    return { log, reader, file };
  }

  t.test('appends made while a batch commits all resolve, with consecutive seqs', async (t) => {
    const { log } = openLog(t);
    const first = await Promise.all(Array.from({ length: 100 }, (_, i) => log.append(win(`a${i}`))));
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => log.append(win(`b${i}`))));
    t.same(
      [...first, ...results].map((r) => r.win.seq),
      Array.from({ length: 1100 }, (_, i) => i + 1),
    );
    t.equal(await log.lastSeq('2026-11'), 1100, 'the reading connection sees every commit');
    t.same(await log.periods(), ['2026-11']);
  });

  t.test('a failed commit rejects every append of its batch, and leaves no gap', async (t) => {
    const { log, reader } = openLog(t);
    await log.append(win('a'));
    reader.exec(
      "CREATE TRIGGER fail BEFORE INSERT ON wins WHEN NEW.user_id = 'boom' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    );
    const results = await Promise.allSettled([log.append(win('ok')), log.append(win('boom'))]);
    t.same(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    t.match((results[1] as PromiseRejectedResult).reason, { message: /disk on fire/ });
    reader.exec('DROP TRIGGER fail');
    t.equal((await log.append(win('after'))).win.seq, 2);
  });

  t.test('close commits what is queued, then refuses appends', async (t) => {
    const { log, file } = openLog(t);
    const appends = Array.from({ length: 50 }, (_, i) => log.append(win(`c${i}`, 1, `m${i}`)));
    await log.close();
    t.equal((await Promise.all(appends)).length, 50);
    await t.rejects(log.append(win('late')), /closed/);
    const again = openLog(t, file);
    t.equal(await again.log.lastSeq('2026-11'), 50, 'all 50 on disk');
    t.same(await again.log.periods(), ['2026-11'], 'the periods are remembered');
    const replay = await again.log.append(win('c7', 1, 'm7'));
    t.equal(replay.duplicate, true, 'a match id from before the restart is known after it');
    t.equal(replay.win.seq, 8);
  });

  t.test('wins are written whole: text of any script, match ids or none, in batches', async (t) => {
    const { log } = openLog(t);
    const sent = [
      { period: '2026-11', userId: 'zoë 🎲', points: 5, matchId: 'match-𝄞', at: 1_764_288_000_123 },
      { period: '2026-11', userId: 'bob', points: 2 ** 40, matchId: undefined, at: 2 },
      { period: '2026-11', userId: '', points: 1, matchId: '', at: 3 },
    ];
    // All in one turn: one batch.
    const written = await Promise.all(sent.map((w) => log.append(w)));
    t.same(
      written.map((r) => r.duplicate),
      [false, false, false],
    );
    const replayed = [];
    for await (const batch of log.read('2026-11', 0)) replayed.push(...batch);
    t.same(
      replayed.map(({ userId, points, matchId, at }) => ({ userId, points, matchId, at })),
      sent.map(({ userId, points, matchId, at }) => ({ userId, points, matchId, at })),
      'as appended, read back from the file',
    );
    const again = await log.append({ ...sent[0]!, userId: 'someone else' });
    t.equal(again.duplicate, true, 'the match id in another script is found again');
    t.equal(again.win.userId, 'zoë 🎲');
    t.equal((await log.append({ ...sent[2]!, userId: 'x' })).duplicate, true, 'an empty match id is one');
  });

  t.test('kill -9 of the process loses no append that had resolved', async (t) => {
    const file = join(tempDir(t, 'tessera-win-log-'), 'wins.db');
    const fixture = fileURLToPath(new URL('../fixtures/append-forever.ts', import.meta.url));
    const child = spawn(process.execPath, [...process.execArgv, fixture, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: string[] = [];
    const enough = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        acked.push(line);
        if (acked.length === 3000) resolve();
      });
    });
    await enough;
    child.kill('SIGKILL');
    await waitForExit(child);
    const db = openSqlite(file);
    t.teardown(() => db.close());
    const known = new Set(
      (db.prepare('SELECT match_id FROM wins').all() as Array<{ match_id: string }>).map((r) => r.match_id),
    );
    const lost = acked.filter((matchId) => !known.has(matchId));
    t.same(lost, [], `all ${acked.length} acknowledged appends are in the file (${known.size} rows)`);
  });

  t.test('the WAL is copied back by the checkpointer, never inside a group commit', async (t) => {
    const file = join(tempDir(t, 'tessera-win-log-'), 'wins.db');
    const reader = openSqlite(file);
    const log = open({ file, synchronous: 'full', reader, walCheckpointMs: 50 });
    t.teardown(async () => {
      await log.close();
      reader.close();
    });
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 500 }, (_, i) => log.append(win(`p${batch}-${i}`))));
    }
    // The writer's own automatic checkpoint is off: its connection reports 0.
    t.ok(existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0, 'the commits went to the WAL');
    await pollUntil(
      'a round that copied every frame back',
      () => {
        const { rounds, frames, copied } = log.walCheckpoints;
        return Promise.resolve(rounds > 0 && frames > 0 && copied === frames);
      },
      { ms: 30_000, intervalMs: 20, describe: () => Promise.resolve(JSON.stringify(log.walCheckpoints)) },
    );
    const { rounds, frames, copied } = log.walCheckpoints;
    t.ok(rounds > 0, `${rounds} checkpoint rounds`);
    t.ok(frames > 0 && copied === frames, `every frame copied back (${copied} of ${frames})`);
    t.equal(await log.lastSeq('2026-11'), 10_000);
  });

  t.test('a batch copies back first when asked, and the WAL starts over', async (t) => {
    // The checkpointer's rule (takeRestart) and the race it answers are played step by step in the
    // kit's sqlite-wal-restart.test.ts; here, with no rounds at all, the writer must honour the
    // request: asked before every batch, the WAL never holds more than about one batch.
    const walAfterBatches = async (asked: boolean): Promise<number> => {
      const file = join(tempDir(t, 'tessera-win-log-'), 'wins.db');
      const reader = openSqlite(file);
      const log = open({
        file,
        synchronous: 'normal',
        reader,
        walCheckpointMs: 1_000_000_000,
        walRestarts: { takeRestart: () => asked, copyBackFailed: () => undefined },
      });
      for (let batch = 0; batch < 30; batch++) {
        await Promise.all(Array.from({ length: 50 }, (_, i) => log.append(win(`p${batch}-${i}`))));
      }
      const size = statSync(`${file}-wal`).size;
      await log.close();
      reader.close();
      return size;
    };
    const never = await walAfterBatches(false);
    const asked = await walAfterBatches(true);
    t.ok(asked * 5 < never, `-wal ${asked} bytes when asked before each batch, ${never} bytes when never`);
  });
}
