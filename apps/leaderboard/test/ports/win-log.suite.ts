/**
 * The WinLog port's contract, as one suite that every adapter runs: `winLogSuite(t, open)` with a
 * factory that opens a fresh, empty log in a namespace of its own (and cleans it up through
 * `t.teardown`).
 */
import type { Test } from 'tap';
import type { NewWin, Win } from '../../src/core/win.ts';
import type { WinLog } from '../../src/ports.ts';

export type OpenWinLog = (t: Test) => Promise<WinLog>;

export function newWin(userId: string, points = 1, matchId?: string, period = '2026-11'): NewWin {
  return { period, userId, points, matchId, at: 1_790_000_000_000 };
}

export async function readAll(log: WinLog, period: string, afterSeq = 0): Promise<Win[][]> {
  const batches: Win[][] = [];
  for await (const batch of log.read(period, afterSeq)) batches.push([...batch]);
  return batches;
}

export function winLogSuite(t: Test, open: OpenWinLog): void {
  t.test('append records a win with a seq, and read gives it back', async (t) => {
    const log = await open(t);
    const { win, duplicate } = await log.append(newWin('alice', 3, 'm-1'));
    t.equal(duplicate, false);
    t.ok(win.seq > 0, 'a positive seq');
    t.match(win, { period: '2026-11', userId: 'alice', points: 3, matchId: 'm-1', at: 1_790_000_000_000 });
    t.same((await readAll(log, '2026-11')).flat(), [win]);
    t.equal(await log.lastSeq('2026-11'), win.seq);
  });

  t.test('a match id recorded before appends nothing and answers the original win', async (t) => {
    const log = await open(t);
    const first = await log.append(newWin('alice', 3, 'm-1'));
    const again = await log.append(newWin('alice', 3, 'm-1'));
    t.equal(again.duplicate, true);
    t.same(again.win, first.win, 'the original, same seq');
    const other = await log.append(newWin('mallory', 9, 'm-1'));
    t.equal(other.duplicate, true, 'reused with other content: still a duplicate');
    t.same(other.win, first.win, 'answering the original player and points, for the service to refuse');
    t.equal((await readAll(log, '2026-11')).flat().length, 1, 'one win in the log');
  });

  t.test('concurrent appends of one match id record it once', async (t) => {
    const log = await open(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => log.append(newWin('bob', 2, 'same'))));
    const seqs = new Set(results.map((r) => r.win.seq));
    t.equal(seqs.size, 1, 'one seq for all');
    t.equal(results.filter((r) => !r.duplicate).length, 1, 'exactly one call appended');
    t.equal((await readAll(log, '2026-11')).flat().length, 1);
  });

  t.test('wins without a match id are each recorded', async (t) => {
    const log = await open(t);
    const a = await log.append(newWin('carol', 1));
    const b = await log.append(newWin('carol', 1));
    t.equal(a.duplicate || b.duplicate, false);
    t.not(a.win.seq, b.win.seq);
    t.equal(a.win.matchId, undefined);
    t.equal((await readAll(log, '2026-11')).flat().length, 2);
  });

  t.test('read gives the wins after a seq, in seq order, across periods kept apart', async (t) => {
    const log = await open(t);
    const recorded: Win[] = [];
    // Appends in flight together, as from many requests; seq order is what read must follow.
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          log.append(newWin(`p${i % 7}`, 1 + (i % 3), `r${round}-${i}`, i % 5 === 0 ? '2026-12' : '2026-11')),
        ),
      );
      recorded.push(...results.map((r) => r.win));
    }
    const november = recorded.filter((w) => w.period === '2026-11').sort((a, b) => a.seq - b.seq);
    const december = recorded.filter((w) => w.period === '2026-12').sort((a, b) => a.seq - b.seq);
    const all = (await readAll(log, '2026-11')).flat();
    t.same(all, november, 'every win of the period, in seq order');
    t.same((await readAll(log, '2026-12')).flat(), december);
    t.ok(
      (await readAll(log, '2026-11')).every((batch) => batch.length > 0),
      'no empty batch',
    );
    const middle = november[40]!.seq;
    t.same((await readAll(log, '2026-11', middle)).flat(), november.slice(41), 'only seqs after afterSeq');
    t.same(await readAll(log, '2026-11', november.at(-1)!.seq), [], 'nothing after the last');
    t.same(await readAll(log, '2027-01'), [], 'nothing for a period without wins');
    t.equal(await log.lastSeq('2026-11'), november.at(-1)!.seq);
    t.equal(await log.lastSeq('2026-12'), december.at(-1)!.seq);
    t.equal(await log.lastSeq('2027-01'), 0, 'a period without wins');
    t.same(await log.periods(), ['2026-11', '2026-12'], 'periods oldest first');
  });

  t.test('an empty log has no periods', async (t) => {
    const log = await open(t);
    t.same(await log.periods(), []);
    t.equal(await log.lastSeq('2026-11'), 0);
  });
}
