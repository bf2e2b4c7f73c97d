import { Ranking } from '../../src/core/ranking.ts';

/** A ranking with `wins` applied in order (seq 1, 2, …). */
export function board(tieBreak: 'shared' | 'earliest', wins: Array<[string, number]>): Ranking {
  const ranking = new Ranking(tieBreak);
  wins.forEach(([user, points], i) => ranking.apply(i + 1, user, points));
  return ranking;
}
