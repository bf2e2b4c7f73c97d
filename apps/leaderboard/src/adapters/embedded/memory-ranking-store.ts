import type { Period } from '../../core/period.ts';
import { Ranking } from '../../core/ranking.ts';
import type { Standing, TieBreak } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import type { RankingStore } from '../../ports.ts';

const STANDINGS_BATCH = 10_000;

/** The live rankings held in this process, one core `Ranking` per month. */
export class MemoryRankingStore implements RankingStore {
  readonly #rankings = new Map<Period, Ranking>();
  readonly #tieBreak: TieBreak;

  constructor(tieBreak: TieBreak) {
    this.#tieBreak = tieBreak;
  }

  /** The period's ranking, created empty when missing (synchronous: the embedded hot path). */
  ranking(period: Period): Ranking {
    let ranking = this.#rankings.get(period);
    if (ranking === undefined) {
      ranking = new Ranking(this.#tieBreak);
      this.#rankings.set(period, ranking);
    }
    return ranking;
  }

  /** Installs a ranking restored from a checkpoint. */
  adopt(period: Period, ranking: Ranking): void {
    this.#rankings.set(period, ranking);
  }

  has(period: Period): boolean {
    return this.#rankings.has(period);
  }

  applySync(wins: readonly Win[]): void {
    for (const win of wins) this.ranking(win.period).apply(win.seq, win.userId, win.points);
  }

  apply(wins: readonly Win[]): Promise<void> {
    this.applySync(wins);
    return Promise.resolve();
  }

  appliedSeq(period: Period): Promise<number> {
    return Promise.resolve(this.#rankings.get(period)?.appliedSeq ?? 0);
  }

  standing(period: Period, userId: string): Promise<Standing | undefined> {
    return Promise.resolve(this.#rankings.get(period)?.standing(userId));
  }

  top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    return Promise.resolve(this.#rankings.get(period)?.top(offset, limit) ?? []);
  }

  around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    return Promise.resolve(this.#rankings.get(period)?.around(userId, n));
  }

  periods(): Promise<Period[]> {
    return Promise.resolve([...this.#rankings.keys()].sort());
  }

  async *standings(period: Period): AsyncIterable<readonly Standing[]> {
    const ranking = this.#rankings.get(period);
    if (ranking === undefined) return;
    // Ranks are fixed for a finished month, so walking by position in batches is consistent.
    for (let offset = 0; offset < ranking.size; offset += STANDINGS_BATCH) {
      yield ranking.top(offset, STANDINGS_BATCH);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  drop(period: Period): Promise<void> {
    this.#rankings.delete(period);
    return Promise.resolve();
  }

  /** Players and bytes held, for metrics. */
  stats(): { periods: number; players: number; bytes: number } {
    let players = 0;
    let bytes = 0;
    for (const ranking of this.#rankings.values()) {
      players += ranking.size;
      bytes += ranking.byteLength;
    }
    return { periods: this.#rankings.size, players, bytes };
  }
}
