import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Period } from '../../core/period.ts';
import type { Win } from '../../core/win.ts';
import { PlayerSketch } from './player-sketch.ts';
import { LAST_SEQ_QUERY, REPLAY_QUERY, type ReplayRow } from './win-batch-writer.ts';

const READ_BATCH = 10_000;

/** The read side of the win log, on any connection to wins.db (WAL: it sees every commit). */
export class WinLogReads {
  readonly #readPeriod: StatementSync;
  readonly #lastSeqOf: StatementSync;
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#readPeriod = db.prepare(REPLAY_QUERY);
    this.#readPeriod.setReturnArrays(true);
    this.#lastSeqOf = db.prepare(LAST_SEQ_QUERY);
  }

  async *read(period: Period, afterSeq: number): AsyncIterable<readonly Win[]> {
    let from = afterSeq;
    for (;;) {
      const rows = this.#readPeriod.all(period, from, READ_BATCH) as unknown as ReplayRow[];
      if (rows.length === 0) return;
      const wins = new Array<Win>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const [seq, userId, points, matchId, at] = rows[i]!;
        wins[i] = { seq, period, userId, points, matchId: matchId ?? undefined, at };
      }
      yield wins;
      from = wins[wins.length - 1]!.seq;
      // Let requests in between batches of a long replay.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The period's distinct players as its sketch estimates them (0 when it has none). */
  players(period: Period): number {
    return Math.round(PlayerSketch.read(this.#db, period).estimate());
  }

  lastSeq(period: Period): number {
    return (this.#lastSeqOf.get(period) as { seq: number }).seq;
  }
}
