/**
 * The leaderboard's ports: what the service needs from storage, whatever the backend. Embedded
 * mode implements them over node:sqlite and memory (adapters/embedded); distributed mode over a
 * JetStream win log, Redis sorted sets and Cassandra. `adapters/select.ts` picks them from the
 * settings; nothing outside `adapters/` names a concrete adapter.
 *
 * The write path is spelled out by the service, step by step, over these ports (append the win,
 * apply it to the ranking, answer), so no correctness rests on what only one adapter can promise.
 */
import type { TraceScope } from '@tessera/kit';
import type { WalCheckpoints } from '@tessera/kit/sqlite';
import type { Admission } from './core/admission.ts';
import type { Period } from './core/period.ts';
import type { Standing } from './core/standing.ts';
import type { NewWin, Win } from './core/win.ts';

export interface AppendResult {
  readonly win: Win;
  /** True when the match id was recorded before: nothing was appended and `win` is the original. */
  readonly duplicate: boolean;
}

/** The durable record of wins, kept apart from the ranking; the ranking is rebuilt from it. */
export interface WinLog {
  /**
   * Records a win and resolves once it is durable. A match id recorded before appends nothing and
   * resolves to the original win (whatever its player or points: the service compares them).
   * `trace`: the caller's trace scope; a log that sends messages carries its context in them.
   */
  append(win: NewWin, trace?: TraceScope): Promise<AppendResult>;
  /** Wins of `period` with seq > afterSeq, in seq order, in batches. */
  read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]>;
  /** Periods that have wins, oldest first. */
  periods(): Promise<Period[]>;
  /** Seq of the period's last recorded win (0 when it has none). */
  lastSeq(period: Period): Promise<number>;
  /**
   * About how many distinct players the period's wins have (an estimate, within a few per cent),
   * for a replay to size its ranking once; absent where the log keeps no such count.
   */
  players?(period: Period): Promise<number>;
  /**
   * Why the log refuses every append until the process restarts (its file could not be synced:
   * what reached the disk is unknown), if it does; absent where a log never gets into that state.
   */
  refusing?(): string | undefined;
  close(): Promise<void>;
}

/** The reads that both a live ranking and an archived month answer. */
export interface StandingsReader {
  standing(period: Period, userId: string): Promise<Standing | undefined>;
  top(period: Period, offset: number, limit: number): Promise<Standing[]>;
  around(period: Period, userId: string, n: number): Promise<Standing[] | undefined>;
}

/**
 * The live rankings, one per period still in play: a projection of the win log. Applying is
 * idempotent, so a redelivered or replayed win changes nothing; with several api processes the
 * wins of a period reach the ranking in any order, and none may be lost or counted twice.
 */
export interface RankingStore extends StandingsReader {
  /** Applies one win and answers the player's standing after it (one round trip). */
  applyWin(win: Win): Promise<Standing>;
  /** Applies what `winLog.read(period, appliedSeq(period))` yields, batch after batch, in order. */
  applyBatch(wins: readonly Win[]): Promise<void>;
  /**
   * The period's watermark: every win of the period at or below it is applied (0 when none is).
   * A catch-up reads the log from here, so it can never skip a win.
   */
  appliedSeq(period: Period): Promise<number>;
  /** Periods with a live ranking, oldest first. */
  periods(): Promise<Period[]>;
  /** Every player of a period in rank order (for archiving). */
  standings(period: Period): AsyncIterable<readonly Standing[]>;
  /** Drops a period's ranking once it is archived. */
  drop(period: Period): Promise<void>;
  /** Number of players ranked in `period`. */
  players(period: Period): Promise<number>;
  /**
   * Makes room for about `players` players in the period before a replay applies its wins, so
   * that it need not grow as it goes; a wrong count costs time only. Absent where nothing is sized.
   */
  reserve?(period: Period, players: number): Promise<void>;
  /**
   * A player's standing read synchronously, for stores held in this process (embedded): what
   * `standing` answers, without a promise. Absent on stores that need a round trip.
   */
  readonly standingNow?: (period: Period, userId: string) => Standing | undefined;
  /**
   * `applyWin` done synchronously, for stores held in this process (embedded): the update path
   * then makes no promise of its own. Throws where `applyWin` rejects. Absent elsewhere.
   */
  readonly applyWinNow?: (win: Win) => Standing;
  /** Whether a win of `userId` in `period` can be applied (asked before it is logged); absent: always. */
  readonly admits?: (period: Period, userId: string) => Admission;
  /** The win `admits` answered `reserved` for will not be applied: the room set aside goes back. */
  readonly dropAdmitted?: (period: Period, userId: string) => void;
  /**
   * Why `period` takes no win now (its ranking is being rebuilt: the RankingGate's coded 503),
   * asked before a win is logged so that a refused update records nothing; undefined when it
   * does. Absent: always takes wins.
   */
  readonly refusal?: (period: Period) => Error | undefined;
  /**
   * After a period was replayed because the store lost state (its watermark went back), makes
   * what the store derives from the applied wins whole again. Absent where the replay alone does
   * (a store whose answers come straight from what the replay applies).
   */
  repair?(period: Period): Promise<void>;
  close(): Promise<void>;
}

/** Where a finished period goes: fixed standings, still readable. */
export interface ArchiveStore extends StandingsReader {
  isArchived(period: Period): Promise<boolean>;
  /** Writes a period's final standings; it reads as archived only once every batch is in. */
  write(period: Period, standings: AsyncIterable<readonly Standing[]>): Promise<number>;
  /** The archived periods, oldest first (what retention counts). */
  periods(): Promise<Period[]>;
  /** Forgets a period: it reads as not archived at once, its standings go with it (unknown: nothing). */
  delete(period: Period): Promise<void>;
  close(): Promise<void>;
}

export interface Profile {
  readonly userName: string;
  readonly displayName: string;
}

/** Player profiles, in their own store. */
export interface ProfileStore {
  get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>>;
  put(userId: string, profile: Profile): Promise<void>;
  close(): Promise<void>;
}

/** Figures for /metrics and readiness, whatever the adapters: each may be unknown. */
export interface LeaderboardStats {
  /** Bytes the live rankings hold in this process (embedded only). */
  readonly rankingBytes?: () => number;
  /** Profile lookups answered by the cache since start. */
  readonly profileCacheHits?: () => number;
  /** The win log's WAL checkpoints, where it is a SQLite file of this process (embedded). */
  readonly winLogWal?: () => WalCheckpoints;
}

/** Every port, as the composition root hands them to the service and the roles. */
export interface LeaderboardPorts {
  readonly winLog: WinLog;
  readonly rankings: RankingStore;
  readonly archive: ArchiveStore;
  readonly profiles: ProfileStore;
  readonly stats: LeaderboardStats;
  /** True when the stores are shared between processes (roles may run apart). */
  readonly shared: boolean;
  /**
   * What is down now and falls back meanwhile (checking again what was down), or undefined when
   * everything answers; absent when no store can be down on its own (embedded).
   */
  readonly degraded?: () => Promise<string | undefined>;
  /** Saves what the adapters derive and keep themselves (embedded: ranking checkpoints) now. */
  checkpoint(): Promise<void>;
  /** Stops the adapters' own background work and closes every store. */
  close(): Promise<void>;
}
