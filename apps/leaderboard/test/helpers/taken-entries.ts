import type { Ranking, RankingEntry } from '../../src/core/ranking.ts';

/** The ranking's changed players as saved entries, taken as by a checkpoint save that succeeds. */
export function takenEntries(ranking: Ranking): RankingEntry[] {
  const changes = ranking.takeChanges();
  const entries = Array.from({ length: changes.length }, (_, i) => changes.entryAt(i));
  changes.end(true);
  return entries;
}
