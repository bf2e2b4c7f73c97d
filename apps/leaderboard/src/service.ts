import type { Period } from './core/period.ts';
import type { Standing } from './core/standing.ts';
import { leaderboardErrors } from './errors.ts';
import type { ArchiveStore, Profile, ProfileStore, RankingStore, WinLog } from './ports.ts';

/** A top-list or window entry: a standing with the name to show. */
export interface Entry extends Standing {
  readonly userName: string;
}

export interface RecordedWin {
  readonly period: Period;
  readonly standing: Standing;
  /** True when the match was recorded before and this call added nothing. */
  readonly replayed: boolean;
}

export interface LeaderboardServiceOptions {
  readonly winLog: WinLog;
  readonly rankings: RankingStore;
  readonly archive: ArchiveStore;
  readonly profiles: ProfileStore;
  readonly now: () => number;
  readonly periodOf: (epochMs: number) => Period;
}

/** The reads both live rankings and archived months answer. */
type StandingsReader = Pick<RankingStore, 'standing' | 'top' | 'around'>;

/**
 * The leaderboard's use cases over its ports: record a win, read the top list, read one player's
 * standing (with the players around), and keep profiles. No storage detail lives here.
 */
export class LeaderboardService {
  readonly #o: LeaderboardServiceOptions;

  constructor(options: LeaderboardServiceOptions) {
    this.#o = options;
  }

  currentPeriod(): Period {
    return this.#o.periodOf(this.#o.now());
  }

  /**
   * Appends the win to the durable log (the ranking follows the log), then answers with the
   * player's standing. A match id seen before adds nothing and answers with the current standing.
   */
  async recordWin(input: {
    userId: string;
    points: number;
    matchId?: string | undefined;
  }): Promise<RecordedWin> {
    const at = this.#o.now();
    const { win, duplicate } = await this.#o.winLog.append({
      period: this.#o.periodOf(at),
      userId: input.userId,
      points: input.points,
      matchId: input.matchId,
      at,
    });
    const reader = await this.#reader(win.period);
    const standing = await reader.standing(win.period, win.userId);
    if (standing === undefined) throw new Error(`win ${win.seq} is recorded but ${win.userId} is not ranked`);
    return { period: win.period, standing, replayed: duplicate };
  }

  async top(
    period: Period | undefined,
    offset: number,
    limit: number,
  ): Promise<{ period: Period; entries: Entry[] }> {
    const month = period ?? this.currentPeriod();
    const reader = await this.#reader(month);
    const standings = await reader.top(month, offset, limit);
    return { period: month, entries: await this.#named(standings) };
  }

  async standing(
    userId: string,
    period: Period | undefined,
    around: number | undefined,
  ): Promise<{ period: Period; standing: Standing; window?: Entry[] }> {
    const month = period ?? this.currentPeriod();
    const reader = await this.#reader(month);
    const standing = await reader.standing(month, userId);
    if (standing === undefined) {
      throw leaderboardErrors.LB_USER_NOT_RANKED(`user ${userId} has no score in ${month}`);
    }
    if (around === undefined) return { period: month, standing };
    const window = (await reader.around(month, userId, around)) ?? [standing];
    return { period: month, standing, window: await this.#named(window) };
  }

  async profile(userId: string): Promise<Profile> {
    const profile = (await this.#o.profiles.get([userId])).get(userId);
    if (profile === undefined) throw leaderboardErrors.LB_PROFILE_NOT_FOUND(`user ${userId} has no profile`);
    return profile;
  }

  putProfile(userId: string, profile: Profile): Promise<void> {
    return this.#o.profiles.put(userId, profile);
  }

  /** A month is read from the live ranking while it has one, from the archive once archived. */
  async #reader(period: Period): Promise<StandingsReader> {
    const live = await this.#o.rankings.periods();
    if (live.includes(period)) return this.#o.rankings;
    return (await this.#o.archive.isArchived(period)) ? this.#o.archive : this.#o.rankings;
  }

  async #named(standings: readonly Standing[]): Promise<Entry[]> {
    const profiles = await this.#o.profiles.get(standings.map((s) => s.userId));
    return standings.map((s) => ({ ...s, userName: profiles.get(s.userId)?.userName ?? s.userId }));
  }
}
