import t from 'tap';
import { takenEntries } from '../helpers/taken-entries.ts';
import { Ranking } from '../../src/core/ranking.ts';
import { board } from './board.ts';

t.test('a new player starts at 0 and later points add up', async (t) => {
  const ranking = board('shared', [
    ['alice', 3],
    ['alice', 2],
  ]);
  t.same(ranking.standing('alice'), { userId: 'alice', score: 5, rank: 1 });
  t.equal(ranking.size, 1);
});

t.test('equal scores share a rank (standard competition ranking: 9, 7, 7, 5 → 1, 2, 2, 4)', async (t) => {
  const ranking = board('shared', [
    ['a', 9],
    ['b', 7],
    ['c', 7],
    ['d', 5],
  ]);
  t.same(
    ranking.top(0, 10).map((s) => [s.userId, s.score, s.rank]),
    [
      ['a', 9, 1],
      ['b', 7, 2],
      ['c', 7, 2],
      ['d', 5, 4],
    ],
  );
  t.equal(ranking.standing('c')?.rank, 2);
  t.equal(ranking.standing('d')?.rank, 4);
});

t.test('tie-break earliest: who reached the score first ranks higher and ranks are distinct', async (t) => {
  const ranking = board('earliest', [
    ['b', 7],
    ['a', 9],
    ['c', 5],
    ['c', 2], // c reaches 7 after b did
  ]);
  t.same(
    ranking.top(0, 10).map((s) => [s.userId, s.rank]),
    [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ],
  );
  ranking.apply(5, 'b', 2); // b reaches 9 after a
  t.same(
    ranking.top(0, 3).map((s) => s.userId),
    ['a', 'b', 'c'],
  );
});

t.test('a redelivered win (seq already applied) changes nothing', async (t) => {
  const ranking = board('shared', [['alice', 3]]);
  t.equal(ranking.apply(1, 'alice', 3), false);
  t.equal(ranking.standing('alice')?.score, 3);
  t.equal(ranking.appliedSeq, 1);
});

t.test('top honours offset and limit', async (t) => {
  const ranking = board(
    'shared',
    Array.from({ length: 30 }, (_, i): [string, number] => [`p${i}`, i + 1]),
  );
  t.same(
    ranking.top(0, 10).map((s) => s.score),
    [30, 29, 28, 27, 26, 25, 24, 23, 22, 21],
  );
  t.same(
    ranking.top(25, 10).map((s) => s.rank),
    [26, 27, 28, 29, 30],
  );
  t.same(ranking.top(40, 10), []);
});

t.test('around gives up to n above and n below, clipped at both ends', async (t) => {
  const ranking = board(
    'shared',
    Array.from({ length: 10 }, (_, i): [string, number] => [`p${i}`, 10 - i]),
  );
  t.same(
    ranking.around('p5', 2)?.map((s) => s.userId),
    ['p3', 'p4', 'p5', 'p6', 'p7'],
  );
  t.same(
    ranking.around('p0', 4)?.map((s) => s.userId),
    ['p0', 'p1', 'p2', 'p3', 'p4'],
  );
  t.same(
    ranking.around('p9', 1)?.map((s) => s.userId),
    ['p8', 'p9'],
  );
  t.equal(ranking.around('nobody', 4), undefined);
  t.equal(ranking.standing('nobody'), undefined);
});

t.test('forEachStanding walks every player in rank order', async (t) => {
  const ranking = board('shared', [
    ['a', 2],
    ['b', 5],
    ['c', 2],
  ]);
  const seen: string[] = [];
  ranking.forEachStanding((s) => {
    seen.push(`${s.userId}:${s.rank}`);
  });
  t.same(seen, ['b:1', 'a:2', 'c:2']);
});

t.test(
  'a shared rank read from a block inside one score run, or across runs, matches the order',
  async (t) => {
    // Placed in bulk into full blocks of 4 over runs of 1 to 9 players, high scores first: some
    // blocks lie inside one run (the score is read off the block), some straddle two runs or the
    // high scores (the player is looked for in it). Then wins move players and split blocks.
    const ranking = new Ranking('shared', { blockSize: 4, denseScores: 16, bulkPlacement: 3 });
    let seq = 0;
    const runs = [2, 9, 1, 5, 3, 7, 4, 6, 8];
    let player = 0;
    runs.forEach((length, run) => {
      for (let i = 0; i < length; i++) ranking.apply(++seq, `p${player++}`, run === 0 ? 30 : 10 - run);
    });
    const agrees = (): number => {
      let wrong = 0;
      for (const expected of ranking.top(0, ranking.size)) {
        const read = ranking.standing(expected.userId)!;
        if (read.score !== expected.score || read.rank !== expected.rank) wrong++;
      }
      return wrong;
    };
    t.equal(agrees(), 0, 'after a bulk placement');
    for (let i = 0; i < player; i += 4) ranking.apply(++seq, `p${i}`, 1 + (i % 3));
    t.equal(agrees(), 0, 'after wins');
    const all = ranking.top(0, ranking.size);
    const saved = takenEntries(ranking);
    t.same(
      saved.map((e) => e.score).sort((a, b) => a - b),
      all.map((s) => s.score).sort((a, b) => a - b),
    );
  },
);
