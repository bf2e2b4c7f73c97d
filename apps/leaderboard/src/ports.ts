/**
 * The leaderboard's ports: what the service needs from storage, whatever the backend.
 * Embedded mode implements them over node:sqlite and memory (adapters/embedded); distributed
 * mode over a JetStream win log, Redis sorted sets and Cassandra (later adapters), unchanged core.
 */
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
  /** Records a win; resolves once it is durable and every subscriber has seen it. */
  append(win: NewWin): Promise<AppendResult>;
  /** Wins of `period` with seq > afterSeq, in seq order, in batches. */
  read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]>;
  /** Periods that have wins, oldest first. */
  periods(): Promise<Period[]>;
  /** Seq of the period's last recorded win (0 when it has none). */
  lastSeq(period: Period): Promise<number>;
  /** Calls `listener` with each newly recorded batch, in seq order, before the appends resolve. */
  subscribe(listener: (wins: readonly Win[]) => void): () => void;
  close(): Promise<void>;
}

/** The live rankings, one per month still in play: a projection of the win log. */
export interface RankingStore {
  /** Applies wins in seq order; wins already applied are ignored (redelivery is harmless). */
  apply(wins: readonly Win[]): Promise<void>;
  /** Seq of the last win applied to `period`'s ranking (0 when it has none). */
  appliedSeq(period: Period): Promise<number>;
  standing(period: Period, userId: string): Promise<Standing | undefined>;
  top(period: Period, offset: number, limit: number): Promise<Standing[]>;
  around(period: Period, userId: string, n: number): Promise<Standing[] | undefined>;
  /** Periods with a live ranking. */
  periods(): Promise<Period[]>;
  /** Every player of a period in rank order (for archiving). */
  standings(period: Period): AsyncIterable<readonly Standing[]>;
  /** Drops a period's ranking once it is archived. */
  drop(period: Period): Promise<void>;
}

/** Where a finished month goes: fixed standings, still readable. */
export interface ArchiveStore {
  isArchived(period: Period): Promise<boolean>;
  /** Writes a month's final standings; the month reads as archived only once every batch is in. */
  write(period: Period, standings: AsyncIterable<readonly Standing[]>): Promise<number>;
  standing(period: Period, userId: string): Promise<Standing | undefined>;
  top(period: Period, offset: number, limit: number): Promise<Standing[]>;
  around(period: Period, userId: string, n: number): Promise<Standing[] | undefined>;
}

export interface Profile {
  readonly userName: string;
  readonly displayName: string;
}

/** Player profiles, in their own store. */
export interface ProfileStore {
  get(userIds: readonly string[]): Promise<ReadonlyMap<string, Profile>>;
  put(userId: string, profile: Profile): Promise<void>;
}
