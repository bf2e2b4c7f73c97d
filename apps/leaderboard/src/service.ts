import { NO_TRACE, type TraceScope } from '@tessera/kit';
import type { Period } from './core/period.ts';
import type { Standing } from './core/standing.ts';
import type { NewWin, Win } from './core/win.ts';
import { leaderboardErrors } from './errors.ts';
import type { AppendResult, LeaderboardPorts, Profile, StandingsReader } from './ports.ts';
import { isArchivedPeriod, readerFor } from './rollover.ts';
import { TopListCache } from './top-list-cache.ts';

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

/** What a score update names: a retry must repeat it. */
interface MatchInput {
  readonly userId: string;
  readonly points: number;
  readonly matchId?: string | undefined;
}

export interface LeaderboardServiceOptions {
  readonly ports: Pick<LeaderboardPorts, 'winLog' | 'rankings' | 'archive' | 'profiles'>;
  readonly now: () => number;
  readonly periodOf: (epochMs: number) => Period;
  /**
   * Keep the top list between reads, dropped by the next win that changes it. Only sound when
   * every write goes through this process (embedded stores): another replica's wins would not
   * reach the cache.
   */
  readonly cacheTopList: boolean;
  /** Told when a store fails and the answer falls back (a top list shows user ids for names). */
  readonly onDegraded?: (store: string, error: unknown) => void;
}

/**
 * The leaderboard's use cases over its ports: record a win, read the top list, read one player's
 * standing (with the players around), and keep profiles. No storage detail lives here.
 */
export class LeaderboardService {
  readonly #ports: LeaderboardServiceOptions['ports'];
  readonly #now: () => number;
  readonly #periodOf: (epochMs: number) => Period;
  readonly #topLists: TopListCache<Entry> | undefined;
  readonly #onDegraded: LeaderboardServiceOptions['onDegraded'];

  constructor(options: LeaderboardServiceOptions) {
    this.#ports = options.ports;
    this.#now = options.now;
    this.#periodOf = options.periodOf;
    this.#topLists = options.cacheTopList ? new TopListCache<Entry>() : undefined;
    this.#onDegraded = options.onDegraded;
  }

  currentPeriod(): Period {
    return this.#periodOf(this.#now());
  }

  /**
   * The write path, in the order that makes it safe: append the win to the durable log, apply it
   * to the ranking, answer. A crash between the steps loses nothing, because the ranking is
   * rebuilt from the log. A retried match (same match id) appends nothing but is applied again —
   * harmless, as applying is idempotent — so a retry after such a crash still shows the win.
   * A period being rebuilt refuses the win before the append: a refused update records nothing.
   */
  recordWin(
    input: {
      userId: string;
      points: number;
      matchId?: string | undefined;
    },
    trace: TraceScope = NO_TRACE,
  ): Promise<RecordedWin> {
    const at = this.#now();
    const period = this.#periodOf(at);
    const refused = this.#ports.rankings.refusal?.(period);
    if (refused !== undefined) return Promise.reject(refused);
    const newWin = {
      period,
      userId: input.userId,
      points: input.points,
      matchId: input.matchId,
      at,
    };
    const admission = this.#ports.rankings.admits?.(period, input.userId);
    if (admission === 'refused')
      return Promise.reject(leaderboardErrors.LB_PLAYER_LIMIT(`no room for another player id in ${period}`));
    const recorded =
      trace === NO_TRACE ? this.#recordUntraced(newWin, input) : this.#recordTraced(newWin, input, trace);
    if (admission !== 'reserved') return recorded;
    // A new player near the id arena's end: the room set aside for their id goes back if the win
    // fails (not logged, or a match id that conflicts). A win logged but not applied (its period
    // closed meanwhile) is applied by the rebuild, which the arena's headroom makes room for.
    return recorded.catch((error: unknown) => {
      this.#ports.rankings.dropAdmitted?.(period, input.userId);
      throw error;
    });
  }

  /**
   * Nearly every update: one reaction to the append and, with an embedded ranking, no further
   * promise: fewer objects per update live across the log's sync. Without a match id no append is
   * a duplicate, and the reaction is made once, not per update.
   */
  #recordUntraced(newWin: NewWin, input: MatchInput): Promise<RecordedWin> {
    const appended = this.#ports.winLog.append(newWin);
    if (input.matchId === undefined) return appended.then(this.#applyFresh);
    return appended.then((result) => this.#apply(result, input));
  }

  /** #apply for a win without a match id (never a duplicate: nothing to compare). */
  readonly #applyFresh = (appended: AppendResult): RecordedWin | Promise<RecordedWin> =>
    this.#apply(appended, appended.win);

  async #recordTraced(newWin: NewWin, input: MatchInput, trace: TraceScope): Promise<RecordedWin> {
    // Each step its own span: the append (a message to the log) and the ranking update.
    const { win, duplicate } = await trace.span(
      'leaderboard.win.append',
      (scope) => this.#ports.winLog.append(newWin, scope),
      'producer',
    );
    // The span covers the ranking's apply only, not a retry's checks (the archive is read outside it).
    const apply = () => trace.span('leaderboard.ranking.apply', () => this.#ports.rankings.applyWin(win));
    if (duplicate) return this.#replayed(win, input, apply);
    return this.#applied(win, await apply(), false);
  }

  /** Applies an appended win to the ranking (a retried one after its checks): the answer. */
  #apply({ win, duplicate }: AppendResult, input: MatchInput): RecordedWin | Promise<RecordedWin> {
    if (duplicate) return this.#replayed(win, input);
    const { applyWinNow } = this.#ports.rankings;
    if (applyWinNow === undefined)
      return this.#ports.rankings.applyWin(win).then((standing) => this.#applied(win, standing, false));
    return this.#applied(win, applyWinNow(win), false);
  }

  #applied(win: Win, standing: Standing, replayed: boolean): RecordedWin {
    this.#topLists?.changed(win.period, standing.rank);
    return { period: win.period, standing, replayed };
  }

  async #replayed(
    win: Win,
    input: MatchInput,
    apply = () => this.#ports.rankings.applyWin(win),
  ): Promise<RecordedWin> {
    assertSameMatch(win, input);
    // A retry of a match from a period already archived reads the archive, never revives it.
    const archived = await isArchivedPeriod(win.period, this.#ports);
    const standing = archived ? await this.#ports.archive.standing(win.period, win.userId) : undefined;
    if (standing !== undefined) return { period: win.period, standing, replayed: true };
    return this.#applied(win, await apply(), true);
  }

  /**
   * The current period's top list when the cache holds it (the full `top` fills it), else
   * undefined: for answers that must not wait.
   */
  cachedTop(limit: number): { period: Period; entries: readonly Entry[] } | undefined {
    const month = this.currentPeriod();
    const entries = this.#topLists?.get(month, limit);
    return entries === undefined ? undefined : { period: month, entries };
  }

  /**
   * A player's standing in the current period, at once when the store can answer so (undefined
   * for a player without a score: the full `standing` then answers its 404), else `standing`'s
   * promise of it (which fails as `standing` does, 404 included). At once only with stores that
   * every write goes through (the top-list cache's condition): there no other process can have
   * archived the current period, so its reader is the live ranking.
   */
  currentStanding(userId: string): Standing | undefined | Promise<Standing> {
    const { standingNow } = this.#ports.rankings;
    if (this.#topLists !== undefined && standingNow !== undefined)
      return standingNow(this.currentPeriod(), userId);
    return this.standing(userId, undefined, undefined).then((found) => found.standing);
  }

  async top(
    period: Period | undefined,
    offset: number,
    limit: number,
  ): Promise<{ period: Period; entries: readonly Entry[] }> {
    const month = period ?? this.currentPeriod();
    const cached = offset === 0 ? this.#topLists?.get(month, limit) : undefined;
    if (cached !== undefined) return { period: month, entries: cached };
    const readAt = this.#topLists?.version ?? 0;
    const reader = await this.#readerFor(month);
    const entries = await this.#named(await reader.top(month, offset, limit));
    if (offset === 0) this.#topLists?.set(month, limit, entries, readAt);
    return { period: month, entries };
  }

  async standing(
    userId: string,
    period: Period | undefined,
    around: number | undefined,
  ): Promise<{ period: Period; standing: Standing; window?: Entry[] }> {
    const month = period ?? this.currentPeriod();
    const reader = await this.#readerFor(month);
    const standing = await reader.standing(month, userId);
    if (standing === undefined) {
      throw leaderboardErrors.LB_USER_NOT_RANKED(`user ${userId} has no score in ${month}`);
    }
    if (around === undefined) return { period: month, standing };
    const window = (await reader.around(month, userId, around)) ?? [standing];
    return { period: month, standing, window: await this.#named(window) };
  }

  async profile(userId: string): Promise<Profile> {
    const profile = (await this.#ports.profiles.get([userId])).get(userId);
    if (profile === undefined) throw leaderboardErrors.LB_PROFILE_NOT_FOUND(`user ${userId} has no profile`);
    return profile;
  }

  async putProfile(userId: string, profile: Profile): Promise<void> {
    await this.#ports.profiles.put(userId, profile);
    // The top lists show user names: any of them may hold this player.
    this.#topLists?.clear();
  }

  /**
   * Where a period is read. With stores every write goes through (the top-list cache's
   * condition), the current period is always the live ranking: only this process archives, and
   * only periods before the current one; the lookup (the live periods, sorted) is skipped then.
   */
  #readerFor(period: Period): Promise<StandingsReader> | StandingsReader {
    if (this.#topLists !== undefined && period === this.currentPeriod()) return this.#ports.rankings;
    return readerFor(period, this.#ports);
  }

  async #named(standings: readonly Standing[]): Promise<Entry[]> {
    const profiles = await this.#ports.profiles
      .get(standings.map((s) => s.userId))
      .catch((error: unknown) => {
        // Names are a nicety: a profile store that is down must not take the rankings with it.
        this.#onDegraded?.('profiles', error);
        return new Map<string, Profile>();
      });
    return standings.map((s) => ({ ...s, userName: profiles.get(s.userId)?.userName ?? s.userId }));
  }
}

/**
 * A match id names one win. Reused for another player or other points it is a client bug (or a
 * forged retry): refuse it, record nothing, and never show the original player's standing.
 */
function assertSameMatch(recorded: Win, input: MatchInput): void {
  if (recorded.userId === input.userId && recorded.points === input.points) return;
  throw leaderboardErrors.LB_MATCH_ID_CONFLICT(
    `match_id ${JSON.stringify(input.matchId)} was already recorded for another win; a retry must repeat the same user_id and points`,
    { match_id: input.matchId },
  );
}
