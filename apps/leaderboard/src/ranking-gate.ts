/**
 * The ranking as the use cases see it while a period is being rebuilt: a live ranking found lost
 * (Redis came back empty) must not answer ranks, or take wins, from half of its wins. While a
 * period is closed its reads and applies are the coded 503 LB_STORE_UNAVAILABLE with
 * Retry-After, and the guarded store's `refusal` (which the service asks before it appends a win)
 * names that 503, so a refused update leaves nothing in the log (a client retries). A win appending when the period closed may be answered
 * 503 though logged: the rebuild or the next catch-up applies it, and its retry counts once only
 * with the same match_id. The rebuild itself writes to the store underneath.
 */
import type { Period } from './core/period.ts';
import type { Standing } from './core/standing.ts';
import type { Win } from './core/win.ts';
import { leaderboardErrors } from './errors.ts';
import type { RankingStore } from './ports.ts';

export class RankingGate {
  readonly #closed = new Set<Period>();

  close(period: Period): void {
    this.#closed.add(period);
  }

  open(period: Period): void {
    this.#closed.delete(period);
  }

  isClosed(period: Period): boolean {
    return this.#closed.has(period);
  }

  /** The coded 503 for a win of `period` while it is closed, else undefined. */
  refusal(period: Period): Error | undefined {
    return this.#closed.has(period) ? this.#unavailable(period) : undefined;
  }

  /** `store` with the closed periods' reads and applies refused. */
  guard(store: RankingStore): RankingStore {
    const gated = <T>(period: Period, run: () => Promise<T>): Promise<T> => {
      if (!this.#closed.has(period)) return run();
      return Promise.reject(this.#unavailable(period));
    };
    const { standingNow, applyWinNow, admits, dropAdmitted, refusal } = store;
    return {
      // The answer that must not wait: none while the period is closed (the full route then
      // answers its 503).
      ...(standingNow === undefined
        ? {}
        : {
            standingNow: (period: Period, userId: string): Standing | undefined =>
              this.#closed.has(period) ? undefined : standingNow(period, userId),
          }),
      ...(applyWinNow === undefined
        ? {}
        : {
            applyWinNow: (win: Win): Standing => {
              if (this.#closed.has(win.period)) throw this.#unavailable(win.period);
              return applyWinNow(win);
            },
          }),
      ...(admits === undefined ? {} : { admits }),
      ...(dropAdmitted === undefined ? {} : { dropAdmitted }),
      // The gate's 503 first; a store that refuses wins of its own keeps its say.
      refusal: (period: Period): Error | undefined => this.refusal(period) ?? refusal?.(period),
      applyWin: (win: Win): Promise<Standing> => gated(win.period, () => store.applyWin(win)),
      applyBatch: (wins) => store.applyBatch(wins),
      appliedSeq: (period) => store.appliedSeq(period),
      periods: () => store.periods(),
      standings: (period) => store.standings(period),
      drop: (period) => store.drop(period),
      players: (period) => store.players(period),
      close: () => store.close(),
      standing: (period, userId) => gated(period, () => store.standing(period, userId)),
      top: (period, offset, limit) => gated(period, () => store.top(period, offset, limit)),
      around: (period, userId, n) => gated(period, () => store.around(period, userId, n)),
    };
  }

  #unavailable(period: Period): Error {
    return leaderboardErrors.LB_STORE_UNAVAILABLE(
      `the ${period} ranking is being rebuilt from the win log; retry shortly`,
      { dependency: 'redis' },
      { 'Retry-After': '1' },
    );
  }
}
