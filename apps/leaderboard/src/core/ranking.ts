import { OrderStatisticTree } from './order-statistic-tree.ts';
import type { Standing, TieBreak } from './standing.ts';
import { UserIdTable } from './user-id-table.ts';

/** One player's saved state: enough to restore the ranking without the win log. */
export interface RankingEntry {
  readonly userId: string;
  readonly score: number;
  /** Sequence of the win that brought the player to this score (the tie-break). */
  readonly seq: number;
}

/**
 * One month's ranking: every player's score and rank, updated win by win in O(log n).
 *
 * Wins are applied in the order of the win log. `seq` is the win's position in that log, and each
 * player keeps the seq of the last win counted in their score: a win at or below it is a
 * redelivery and changes nothing. So replaying the log over a restored ranking is always safe,
 * even when the saved entries are newer than the seq the save claims to cover.
 */
export class Ranking {
  readonly tieBreak: TieBreak;
  readonly #ids = new UserIdTable();
  readonly #tree = new OrderStatisticTree();
  readonly #changed = new ChangedSet();
  #appliedSeq = 0;

  constructor(tieBreak: TieBreak) {
    this.tieBreak = tieBreak;
  }

  /** Number of players with a score. */
  get size(): number {
    return this.#tree.size;
  }

  /** Highest seq applied (or covered by the restored state). */
  get appliedSeq(): number {
    return this.#appliedSeq;
  }

  /** Bytes held by the ranking's typed arrays. */
  get byteLength(): number {
    return this.#ids.byteLength + this.#tree.byteLength + this.#changed.byteLength;
  }

  /** Adds `points` to the player's score (a new player starts at 0). Returns false for a redelivered win. */
  apply(seq: number, userId: string, points: number): boolean {
    const node = this.#ids.intern(userId);
    const known = this.#tree.has(node);
    if (known && seq <= this.#tree.seqOf(node)) return false;
    this.#tree.set(node, (known ? this.#tree.scoreOf(node) : 0) + points, seq);
    this.#changed.add(node);
    if (seq > this.#appliedSeq) this.#appliedSeq = seq;
    return true;
  }

  /** Puts back a saved entry; the caller then sets the seq the saved state was taken at. */
  restore(entry: RankingEntry): void {
    this.#tree.set(this.#ids.intern(entry.userId), entry.score, entry.seq);
  }

  /** Marks the ranking as holding every win up to `seq` (after a restore). */
  restoredUpTo(seq: number): void {
    this.#appliedSeq = Math.max(this.#appliedSeq, seq);
  }

  standing(userId: string): Standing | undefined {
    const node = this.#ids.handleOf(userId);
    if (node < 0 || !this.#tree.has(node)) return undefined;
    return { userId, score: this.#tree.scoreOf(node), rank: this.#rankOf(node) };
  }

  /** Up to `limit` players from position `offset` (0-based), best first. */
  top(offset: number, limit: number): Standing[] {
    const end = Math.min(this.#tree.size, offset + limit);
    const standings: Standing[] = [];
    for (let position = offset; position < end; position++) {
      standings.push(this.#standingAt(position));
    }
    return standings;
  }

  /** The player with up to `n` players above and `n` below, in rank order; undefined for an unknown player. */
  around(userId: string, n: number): Standing[] | undefined {
    const node = this.#ids.handleOf(userId);
    if (node < 0 || !this.#tree.has(node)) return undefined;
    const position = this.#tree.positionOf(node);
    const from = Math.max(0, position - n);
    return this.top(from, position + n + 1 - from);
  }

  /** Every player in rank order, with rank; stops early when `visit` returns false. */
  forEachStanding(visit: (standing: Standing, seq: number) => boolean | void): void {
    let position = 0;
    let previousScore = Number.NaN;
    let sharedRank = 0;
    this.#tree.forEach((node) => {
      const score = this.#tree.scoreOf(node);
      if (score !== previousScore) sharedRank = position + 1;
      previousScore = score;
      position++;
      const rank = this.tieBreak === 'shared' ? sharedRank : position;
      return visit({ userId: this.#ids.idOf(node), score, rank }, this.#tree.seqOf(node));
    });
  }

  /**
   * Takes the players changed since the last call, as opaque handles for `entryOf`; the set starts
   * empty again. A checkpoint writes them, and gives them back with `markChanged` if it fails.
   */
  takeChanges(): Int32Array {
    return this.#changed.take();
  }

  /** The current saved form of a player taken from `takeChanges`. */
  entryOf(handle: number): RankingEntry {
    return {
      userId: this.#ids.idOf(handle),
      score: this.#tree.scoreOf(handle),
      seq: this.#tree.seqOf(handle),
    };
  }

  markChanged(handles: Int32Array): void {
    for (const handle of handles) this.#changed.add(handle);
  }

  #standingAt(position: number): Standing {
    const node = this.#tree.at(position);
    const score = this.#tree.scoreOf(node);
    const rank = this.tieBreak === 'shared' ? this.#tree.countAbove(score) + 1 : position + 1;
    return { userId: this.#ids.idOf(node), score, rank };
  }

  #rankOf(node: number): number {
    return this.tieBreak === 'shared'
      ? this.#tree.countAbove(this.#tree.scoreOf(node)) + 1
      : this.#tree.positionOf(node) + 1;
  }
}

/** A set of handles with O(1) add and a drain, kept in typed arrays. */
class ChangedSet {
  #member = new Uint8Array(1 << 12);
  #list = new Int32Array(1 << 12);
  #count = 0;

  get byteLength(): number {
    return this.#member.byteLength + this.#list.byteLength;
  }

  add(handle: number): void {
    if (handle >= this.#member.length) {
      const member = new Uint8Array(Math.max(handle + 1, this.#member.length * 2));
      member.set(this.#member);
      this.#member = member;
    }
    if (this.#member[handle] === 1) return;
    this.#member[handle] = 1;
    if (this.#count === this.#list.length) {
      const list = new Int32Array(this.#list.length * 2);
      list.set(this.#list);
      this.#list = list;
    }
    this.#list[this.#count++] = handle;
  }

  take(): Int32Array {
    const taken = this.#list.slice(0, this.#count);
    for (const handle of taken) this.#member[handle] = 0;
    this.#count = 0;
    return taken;
  }
}
