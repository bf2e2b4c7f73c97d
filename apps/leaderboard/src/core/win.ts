import type { Period } from './period.ts';

/** A win as the game server reports it. */
export interface NewWin {
  readonly period: Period;
  readonly userId: string;
  readonly points: number;
  /** The game's match id; a second report of the same match is dropped. */
  readonly matchId?: string | undefined;
  /** When the leaderboard received it (epoch ms). */
  readonly at: number;
}

/** A win in the win log: the record the ranking is rebuilt from. */
export interface Win extends NewWin {
  /** Position in the win log; increases by one per recorded win. */
  readonly seq: number;
}

/**
 * The versioned event form of a win, as carried on `lb.wins.<period>` in distributed mode.
 * Its natural id is the match id (or the seq when the game gave none).
 */
export interface WinRecordedV1 {
  readonly type: 'lb.win.recorded';
  readonly v: 1;
  readonly id: string;
  readonly seq: number;
  readonly period: Period;
  readonly userId: string;
  readonly points: number;
  readonly at: number;
}

export function winRecordedEvent(win: Win): WinRecordedV1 {
  return {
    type: 'lb.win.recorded',
    v: 1,
    id: win.matchId ?? `seq-${win.seq}`,
    seq: win.seq,
    period: win.period,
    userId: win.userId,
    points: win.points,
    at: win.at,
  };
}
