/** One player's saved state: enough to restore the ranking without the win log. */
export interface RankingEntry {
  readonly userId: string;
  readonly score: number;
  /** Sequence of the win that brought the player to this score (the tie-break). */
  readonly seq: number;
}

/**
 * The players a checkpoint save took from the ranking (`Ranking.takeChanges`). The ranking holds
 * the list until the save calls `end`, so that a renumbering of the players while the save yields
 * between chunks (a growth of a table keyed by slot, issue #15) renumbers the list with them.
 */
export interface TakenChanges {
  readonly length: number;
  /** The current saved form of the `index`-th player taken. */
  entryAt(index: number): RankingEntry;
  /** Ends the save: unless it was `saved`, the players count as changed again for the next one. */
  end(saved: boolean): void;
}
