import fc from 'fast-check';
import t from 'tap';
import { Ranking } from '../../src/core/ranking.ts';
import type { Standing, TieBreak } from '../../src/core/standing.ts';

/** The obviously-correct model: keep totals, sort everything on every question. */
class NaiveRanking {
  readonly #players = new Map<string, { score: number; seq: number }>();
  readonly #tieBreak: TieBreak;
  constructor(tieBreak: TieBreak) {
    this.#tieBreak = tieBreak;
  }
  apply(seq: number, userId: string, points: number): void {
    const score = (this.#players.get(userId)?.score ?? 0) + points;
    this.#players.set(userId, { score, seq });
  }
  all(): Standing[] {
    const sorted = [...this.#players].sort(([, a], [, b]) => b.score - a.score || a.seq - b.seq);
    return sorted.map(([userId, p], i) => ({
      userId,
      score: p.score,
      rank: this.#tieBreak === 'earliest' ? i + 1 : 1 + sorted.filter(([, q]) => q.score > p.score).length,
    }));
  }
}

const win = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 5 }));

for (const tieBreak of ['shared', 'earliest'] as const) {
  t.test(`ranking agrees with the naive model after every win (${tieBreak})`, async (t) => {
    const seed = Number(process.env.PROPERTY_SEED ?? 20261122);
    t.comment(`seed ${seed} (set PROPERTY_SEED to replay)`);
    fc.assert(
      fc.property(fc.array(win, { minLength: 1, maxLength: 120 }), (wins) => {
        const ranking = new Ranking(tieBreak);
        const model = new NaiveRanking(tieBreak);
        wins.forEach(([user, points], i) => {
          ranking.apply(i + 1, `u${user}`, points);
          model.apply(i + 1, `u${user}`, points);
          const expected = model.all();
          const touched = `u${user}`;
          const mine = expected.find((s) => s.userId === touched);
          if (JSON.stringify(ranking.standing(touched)) !== JSON.stringify(mine))
            throw new Error('standing differs');
          if (JSON.stringify(ranking.top(0, 10)) !== JSON.stringify(expected.slice(0, 10)))
            throw new Error('top differs');
        });
        const expected = model.all();
        if (JSON.stringify(ranking.top(0, expected.length)) !== JSON.stringify(expected))
          throw new Error('full order differs');
        for (const s of expected) {
          const at = expected.indexOf(s);
          const around = expected.slice(Math.max(0, at - 3), at + 4);
          if (JSON.stringify(ranking.around(s.userId, 3)) !== JSON.stringify(around))
            throw new Error('around differs');
        }
      }),
      { numRuns: 400, seed },
    );
    t.pass('400 random win streams agree');
  });
}
