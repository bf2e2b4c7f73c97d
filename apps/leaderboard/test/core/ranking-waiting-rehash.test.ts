// Players waiting to be placed while the id table rehashes: their parked pair index moves with them.
import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';

t.test(
  'more than 65,536 players waiting through a rehash keep their parked pair index, high half included',
  async (t) => {
    const n = 70_000;
    const id = (i: number): string => `w${i}`;
    // A rehash at the 34,000th and the 68,000th new player: the second while pair indices pass 2 bytes.
    const ranking = new Ranking('earliest', { renumberEvery: 34_000 });
    const expected = new Map<string, number>();
    let seq = 0;
    for (let i = 0; i < n; i++) {
      ranking.apply(++seq, id(i), 1 + (i % 5));
      expected.set(id(i), 1 + (i % 5));
    }
    // A second win of players still waiting, pairs below and past index 65,535: found by their index.
    for (const i of [3, 65_535, 65_536, 67_999, 68_000, n - 1]) {
      ranking.apply(++seq, id(i), 100);
      expected.set(id(i), expected.get(id(i))! + 100);
    }
    t.equal(ranking.size, n, 'no waiting player taken for a new one');
    const ranks = ranking.top(0, n);
    t.equal(
      ranks.filter((s) => s.score !== expected.get(s.userId)).length,
      0,
      'every score as the wins made it',
    );
  },
);
