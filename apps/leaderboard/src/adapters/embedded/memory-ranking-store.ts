import type { Admission } from '../../core/admission.ts';
import type { Period } from '../../core/period.ts';
import { Ranking } from '../../core/ranking.ts';
import type { Standing, TieBreak } from '../../core/standing.ts';
import type { Win } from '../../core/win.ts';
import type { RankingStore } from '../../ports.ts';

const STANDINGS_BATCH = 10_000;

/**
 * The live rankings held in this process, one core `Ranking` per period. Every method does its
 * work synchronously before it returns its promise: a win applied right after its append resolved
 * is in the ranking before any timer (a checkpoint) can run, so a checkpoint never claims a seq
 * whose win is not in it.
 */
export class MemoryRankingStore implements RankingStore {
  readonly #rankings = new Map<Period, Ranking>();
  readonly #tieBreak: TieBreak;

  constructor(tieBreak: TieBreak) {
    this.#tieBreak = tieBreak;
  }

  /** The period's ranking, created empty when missing. */
  protected ranking(period: Period): Ranking {
    let ranking = this.#rankings.get(period);
    if (ranking === undefined) {
      ranking = new Ranking(this.#tieBreak);
      this.#rankings.set(period, ranking);
    }
    return ranking;
  }

  /** Installs a ranking restored from a checkpoint. */
  protected adopt(period: Period, ranking: Ranking): void {
    this.#rankings.set(period, ranking);
  }

  protected get live(): ReadonlyMap<Period, Ranking> {
    return this.#rankings;
  }

  applyWin(win: Win): Promise<Standing> {
    try {
      return Promise.resolve(this.applyWinNow(win));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  readonly applyWinNow = (win: Win): Standing => {
    const ranking = this.ranking(win.period);
    ranking.apply(win.seq, win.userId, win.points);
    const standing = ranking.standing(win.userId);
    if (standing === undefined) throw new Error(`win ${win.seq} applied but ${win.userId} is not ranked`);
    return standing;
  };

  readonly admits = (period: Period, userId: string): Admission =>
    this.#rankings.get(period)?.admits(userId) ?? 'admitted';

  readonly dropAdmitted = (period: Period, userId: string): void => {
    this.#rankings.get(period)?.dropAdmitted(userId);
  };

  applyBatch(wins: readonly Win[]): Promise<void> {
    // Each run of one period's wins in one core batch (a replay's batches are one period's).
    for (let from = 0; from < wins.length;) {
      const period = wins[from]!.period;
      let to = from + 1;
      while (to < wins.length && wins[to]!.period === period) to++;
      this.ranking(period).applyBatch(from === 0 && to === wins.length ? wins : wins.slice(from, to));
      from = to;
    }
    return Promise.resolve();
  }

  appliedSeq(period: Period): Promise<number> {
    return Promise.resolve(this.#rankings.get(period)?.appliedSeq ?? 0);
  }

  standing(period: Period, userId: string): Promise<Standing | undefined> {
    return Promise.resolve(this.#rankings.get(period)?.standing(userId));
  }

  readonly standingNow = (period: Period, userId: string): Standing | undefined =>
    this.#rankings.get(period)?.standing(userId);

  top(period: Period, offset: number, limit: number): Promise<Standing[]> {
    return Promise.resolve(this.#rankings.get(period)?.top(offset, limit) ?? []);
  }

  around(period: Period, userId: string, n: number): Promise<Standing[] | undefined> {
    return Promise.resolve(this.#rankings.get(period)?.around(userId, n));
  }

  periods(): Promise<Period[]> {
    return Promise.resolve([...this.#rankings.keys()].sort());
  }

  reserve(period: Period, players: number): Promise<void> {
    this.ranking(period).reserve(players);
    return Promise.resolve();
  }

  players(period: Period): Promise<number> {
    return Promise.resolve(this.#rankings.get(period)?.size ?? 0);
  }

  async *standings(period: Period): AsyncIterable<readonly Standing[]> {
    const ranking = this.#rankings.get(period);
    if (ranking === undefined) return;
    // Ranks are fixed for a finished period, so walking by position in batches is consistent.
    for (let offset = 0; offset < ranking.size; offset += STANDINGS_BATCH) {
      yield ranking.top(offset, STANDINGS_BATCH);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  drop(period: Period): Promise<void> {
    this.#rankings.delete(period);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Bytes held by the rankings' typed arrays. */
  bytes(): number {
    let bytes = 0;
    for (const ranking of this.#rankings.values()) bytes += ranking.byteLength;
    return bytes;
  }
}
