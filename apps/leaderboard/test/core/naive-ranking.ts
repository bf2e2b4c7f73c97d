import fc from 'fast-check';
import type { Ranking } from '../../src/core/ranking.ts';
import { type RankingOptions } from '../../src/core/ranking.ts';
import type { Standing, TieBreak } from '../../src/core/standing.ts';

/** The obviously-correct model: keep totals, sort everything on every question. */
export class NaiveRanking {
  readonly #players = new Map<string, { score: number; seq: number }>();
  readonly #tieBreak: TieBreak;
  constructor(tieBreak: TieBreak) {
    this.#tieBreak = tieBreak;
  }
  apply(seq: number, userId: string, points: number): void {
    const score = (this.#players.get(userId)?.score ?? 0) + points;
    this.#players.set(userId, { score, seq });
  }
  set(userId: string, score: number, seq: number): void {
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

/** Throws with both sides printed, so that a failing run shows the values and not only "differs". */
export function same(what: string, actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what} differs:\n  ranking ${a}\n  model   ${e}`);
}

/** Compares every read the ranking offers against the model. */
export function agree(ranking: Ranking, model: NaiveRanking, probe: number): void {
  const expected = model.all();
  same('size', ranking.size, expected.length);
  same('full order', ranking.top(0, expected.length), expected);
  const walked: Standing[] = [];
  ranking.forEachStanding((s) => {
    walked.push(s);
  });
  same('forEachStanding', walked, expected);
  for (const [at, s] of expected.entries()) {
    same(`standing of ${s.userId}`, ranking.standing(s.userId), s);
    const n = 1 + ((probe + at) % 4);
    same(
      `around ${s.userId} ±${n}`,
      ranking.around(s.userId, n),
      expected.slice(Math.max(0, at - n), at + n + 1),
    );
  }
  const offset = probe % (expected.length + 2);
  same(`top(${offset}, 3)`, ranking.top(offset, 3), expected.slice(offset, offset + 3));
}

// Small blocks and a small dense range make every structural path (block splits, merges and
// drops, the high-score path, dense-range growth) happen within a few dozen wins.
export const SHAPES: ReadonlyArray<{ name: string; options: RankingOptions; points: fc.Arbitrary<number> }> =
  [
    { name: 'default sizes, small points', options: {}, points: fc.integer({ min: 1, max: 5 }) },
    {
      name: 'blocks of 4, dense range 16, points up to 40 (players cross many scores and the dense limit)',
      options: { blockSize: 4, denseScores: 16 },
      points: fc.integer({ min: 1, max: 40 }),
    },
    {
      name: 'blocks of 8, points up to LEADERBOARD_MAX_POINTS (1,000,000) across the 2^20 dense limit',
      options: { blockSize: 8 },
      points: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 900_000, max: 1_000_000 })),
    },
    {
      name: 'blocks of 4, dense range 16, every player renumbered at every 3rd new player (as a growth keyed by slot will)',
      options: { blockSize: 4, denseScores: 16, renumberEvery: 3 },
      points: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 14, max: 40 })),
    },
  ];
