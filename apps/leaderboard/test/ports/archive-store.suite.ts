/**
 * The ArchiveStore port's contract, as one suite that every adapter runs:
 * `archiveStoreSuite(t, open)` with a factory that opens an archive in a namespace of its own
 * (cleaning it up through `t.teardown`). Each test uses periods no other test uses, so the factory
 * may hand every test the same archive (a Cassandra keyspace takes seconds to create).
 */
import type { Test } from 'tap';
import type { Standing } from '../../src/core/standing.ts';
import type { ArchiveStore } from '../../src/ports.ts';

export type OpenArchiveStore = (t: Test) => Promise<ArchiveStore>;

/** Players p0…p(n-1), best first, every third one tied with the one before. */
export function finalStandings(n: number): Standing[] {
  const standings: Standing[] = [];
  let score = 10 * n;
  for (let i = 0; i < n; i++) {
    if (i % 3 !== 2) score -= 7;
    const tied = i > 0 && standings[i - 1]!.score === score;
    standings.push({ userId: `p${i}`, score, rank: tied ? standings[i - 1]!.rank : i + 1 });
  }
  return standings;
}

async function* inBatches(standings: readonly Standing[], size: number): AsyncIterable<readonly Standing[]> {
  for (let i = 0; i < standings.length; i += size) yield standings.slice(i, i + size);
}

export function archiveStoreSuite(t: Test, open: OpenArchiveStore): void {
  t.test('a written period reads back: top, standing, around', async (t) => {
    const archive = await open(t);
    const standings = finalStandings(23);
    t.equal(await archive.isArchived('2026-10'), false);
    t.equal(await archive.write('2026-10', inBatches(standings, 5)), 23, 'the number of players written');
    t.equal(await archive.isArchived('2026-10'), true);
    t.same(await archive.top('2026-10', 0, 10), standings.slice(0, 10));
    t.same(await archive.top('2026-10', 8, 10), standings.slice(8, 18), 'a page from an offset');
    t.same(await archive.top('2026-10', 20, 10), standings.slice(20), 'the last page');
    t.same(await archive.top('2026-10', 30, 10), [], 'past the end');
    t.same(await archive.standing('2026-10', 'p4'), standings[4]);
    t.same(await archive.standing('2026-10', 'p5'), standings[5], 'a shared rank kept as archived');
    t.equal(await archive.standing('2026-10', 'nobody'), undefined);
    t.same(await archive.around('2026-10', 'p10', 4), standings.slice(6, 15));
    t.same(await archive.around('2026-10', 'p1', 4), standings.slice(0, 6), 'none above the first');
    t.same(await archive.around('2026-10', 'p22', 2), standings.slice(20), 'none below the last');
    t.equal(await archive.around('2026-10', 'nobody', 4), undefined);
  });

  t.test('periods are kept apart; an unknown period reads empty', async (t) => {
    const archive = await open(t);
    await archive.write('2026-07', inBatches(finalStandings(3), 10));
    await archive.write('2026-08', inBatches([{ userId: 'z', score: 1, rank: 1 }], 10));
    t.same(
      (await archive.top('2026-07', 0, 10)).map((s) => s.userId),
      ['p0', 'p1', 'p2'],
    );
    t.same(await archive.top('2026-08', 0, 10), [{ userId: 'z', score: 1, rank: 1 }]);
    t.equal(await archive.standing('2026-08', 'p0'), undefined);
    t.equal(await archive.isArchived('2026-06'), false);
    t.same(await archive.top('2026-06', 0, 10), []);
  });

  t.test('a write that fails midway leaves the period unarchived; writing again completes it', async (t) => {
    const archive = await open(t);
    const standings = finalStandings(12);
    async function* failing(): AsyncIterable<readonly Standing[]> {
      yield standings.slice(0, 5);
      throw new Error('the ranking went away');
    }
    await t.rejects(archive.write('2026-05', failing()), /went away/);
    t.equal(await archive.isArchived('2026-05'), false, 'not archived until every batch is in');
    t.equal(await archive.write('2026-05', inBatches(standings, 4)), 12);
    t.equal(await archive.isArchived('2026-05'), true);
    t.same(await archive.top('2026-05', 0, 20), standings);
  });

  t.test('an empty period archives with no players', async (t) => {
    const archive = await open(t);
    t.equal(await archive.write('2026-04', inBatches([], 10)), 0);
    t.equal(await archive.isArchived('2026-04'), true);
    t.same(await archive.top('2026-04', 0, 10), []);
  });

  t.test('periods lists the archived periods oldest first; delete forgets one entirely', async (t) => {
    const archive = await open(t);
    // Periods of this test only (the archive may be shared with the other tests).
    const mine = (periods: readonly string[]) => periods.filter((p) => p.startsWith('2019-'));
    const standings = finalStandings(11);
    await archive.write('2019-03', inBatches(standings, 4));
    await archive.write('2019-01', inBatches(standings.slice(0, 2), 4));
    await archive.write('2019-02', inBatches([], 4));
    t.same(mine(await archive.periods()), ['2019-01', '2019-02', '2019-03'], 'oldest first');

    await archive.delete('2019-03');
    t.equal(await archive.isArchived('2019-03'), false, 'no longer archived');
    t.same(await archive.top('2019-03', 0, 20), [], 'its standings are gone');
    t.equal(await archive.standing('2019-03', 'p7'), undefined, 'its players are gone');
    t.equal(await archive.around('2019-03', 'p1', 2), undefined);
    t.same(mine(await archive.periods()), ['2019-01', '2019-02']);
    t.same(await archive.top('2019-01', 0, 10), standings.slice(0, 2), 'the others are kept');

    await archive.delete('2019-03');
    await archive.delete('2019-12');
    t.same(
      mine(await archive.periods()),
      ['2019-01', '2019-02'],
      'deleting again, or the unknown, is nothing',
    );
    t.equal(
      await archive.write('2019-03', inBatches(standings, 5)),
      11,
      'a deleted period can be written again',
    );
    t.same(await archive.top('2019-03', 0, 20), standings);
  });
}
