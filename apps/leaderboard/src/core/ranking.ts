import type { Admission } from './admission.ts';
import { ChangedSet } from './changed-set.ts';
import { BATCH_CHUNK, type BatchWin, KeyBatch } from './key-batch.ts';
import type { RankingEntry, TakenChanges } from './ranking-entry.ts';
import { BULK_GROWTH, BULK_PLACEMENT, DENSE_SCORES } from './ranking-options.ts';
import type { RankingOptions } from './ranking-options.ts';
import { placeWaiting } from './place-waiting.ts';
import { PlacedPlayers } from './placed-players.ts';
import { SeqColumn } from './seq-column.ts';
import { type Standing, type TieBreak, TOP_LIST_SIZE } from './standing.ts';
import { TABLE_GROWTH, UserIdTable } from './user-id-table.ts';
import { WaitingScores } from './waiting-scores.ts';

export type { BatchWin, RankingEntry, RankingOptions, TakenChanges };

/**
 * One month's ranking: every player's score and rank, updated win by win. `PlacedPlayers` keeps
 * the players in rank order with their scores; the ranking adds the id table, each player's seq,
 * the players met but not placed yet, and what the checkpoints need.
 *
 * Wins are applied in the order of the win log. `seq` is the win's position in that log, and each
 * player keeps the seq of the last win counted in their score: a win at or below it is a
 * redelivery and changes nothing. So replaying the log over a restored ranking is always safe,
 * even when the saved entries are newer than the seq the save claims to cover.
 */
export class Ranking {
  readonly tieBreak: TieBreak;
  /** Handles are the ids' slots: a rehash moves every column with them (see #renumber). */
  readonly #ids: UserIdTable;
  readonly #placed: PlacedPlayers;
  readonly #seqs = new SeqColumn();
  readonly #changed = new ChangedSet();
  /** Players not yet placed in the order (restored or new) and their scores; see #wait. */
  readonly #waiting = new WaitingScores();
  #appliedSeq = 0;
  /** Whether capacity beyond a running growth's was made (a replay's growth, a reserve) since the last trim. */
  #oversized = false;
  readonly #bulkPlacement: number;
  readonly #renumberEvery: number;
  #metSinceRenumber = 0;
  /**
   * The top list, kept until a win moves a player into or out of it: the hottest read, and at scale
   * almost no win changes it (a player placed below it scores at most the last listed one).
   */
  #topList: Standing[] | undefined;
  /** A batch's parsed ids (see applyBatch). */
  readonly #keys = new KeyBatch(BATCH_CHUNK);

  constructor(tieBreak: TieBreak, options: RankingOptions = {}) {
    this.tieBreak = tieBreak;
    this.#ids = new UserIdTable((map, capacity) => this.#renumber(map, capacity), options.idArena);
    const dense = {
      blockSize: options.blockSize,
      denseScores: options.denseScores ?? DENSE_SCORES,
      // Each player's block id sits in their id table slot: a rank read's probe brings it along.
      blockIds: this.#ids.blockIds,
    };
    this.#placed = new PlacedPlayers(tieBreak, this.#seqs, dense, (position) => {
      if (position < TOP_LIST_SIZE) this.#topList = undefined;
    });
    this.#bulkPlacement = options.bulkPlacement ?? BULK_PLACEMENT;
    this.#renumberEvery = options.renumberEvery ?? 0;
  }

  /** Number of players with a score. */
  get size(): number {
    return this.#ids.size;
  }

  /** Highest seq applied (or covered by the restored state). */
  get appliedSeq(): number {
    return this.#appliedSeq;
  }

  /** Bytes held by the ranking's typed arrays (capacity). */
  get byteLength(): number {
    return (
      this.#ids.byteLength +
      this.#placed.byteLength +
      this.#waiting.byteLength +
      this.#seqs.byteLength +
      this.#changed.byteLength
    );
  }

  /**
   * Makes room for `players` players in all, so that a rebuild or a restore up to that many
   * neither grows the id table (each growth rewrites every slot at random) nor copies a column.
   * Optional: a hint from a caller that knows the count (a checkpoint) or estimates it (the win
   * log's sketch of its players). A wrong hint costs time, never a result: too small, the table
   * grows as without one; too large, the next bulk placement trims what is unused.
   */
  reserve(hint: number): void {
    // A bad hint (NaN, negative) must not cost an allocation; a large one is capped by the caller
    // (the catch-up: by the players ranked plus the wins to replay).
    const players = Number.isFinite(hint) ? Math.max(0, Math.floor(hint)) : 0;
    if (players <= this.#ids.size) return;
    this.#oversized = true;
    this.#ids.reserve(players);
    const capacity = this.#ids.capacity;
    this.#seqs.reserve(capacity);
    this.#changed.reserve(capacity);
    this.#placed.order.reserve(capacity);
    this.#waiting.reserve(players - this.#placed.size);
  }

  /**
   * Whether a win of `userId` can be applied: refused for a new player whose id the id table has
   * no room left for (see UserIdTable.admits). The service asks before it logs the win.
   */
  admits(userId: string): Admission {
    return this.#ids.admits(userId);
  }

  /**
   * A win `admits` answered `reserved` for will not be applied (its logging failed, its match id
   * conflicts): the room reserved for its new player goes back. Applying the win ends the
   * reservation instead.
   */
  dropAdmitted(userId: string): void {
    this.#ids.dropAdmitted(userId);
  }

  /**
   * Adds `points` to the player's score (a new player starts at 0). Returns false for a redelivered
   * win. A player met for the first time is placed in the order at the next read, together with
   * every other player met since: a replay of the log places millions at once (see #placePending).
   */
  apply(seq: number, userId: string, points: number): boolean {
    const known = this.#ids.size;
    const growth = this.#growth(this.#placed.size, known);
    return this.#counted(this.#ids.intern(userId, growth), known, seq, points, growth);
  }

  /**
   * `apply` of every win in `wins`, in order; returns how many were counted (not redelivered).
   * The same result as one `apply` each, in less time at scale: each chunk's ids are parsed and
   * their slots read in phases before its wins are applied (see KeyBatch).
   */
  applyBatch(wins: readonly BatchWin[]): number {
    const keys = this.#keys;
    let counted = 0;
    for (let from = 0; from < wins.length; from += keys.size) {
      const n = Math.min(keys.size, wins.length - from);
      for (let i = 0; i < n; i++) this.#ids.prepare(wins[from + i]!.userId, keys, i);
      const homes = keys.homes;
      keys.touched ^= this.#ids.touch(keys, n) ^ this.#seqs.touch(homes, n) ^ this.#changed.touch(homes, n);
      for (let i = 0; i < n; i++) {
        const win = wins[from + i]!;
        const known = this.#ids.size;
        const growth = this.#growth(this.#placed.size, known);
        const handle = this.#ids.internPrepared(win.userId, keys, i, growth);
        if (this.#counted(handle, known, win.seq, win.points, growth)) counted++;
      }
    }
    return counted;
  }

  /** Counts a win of `handle` (`known`: the players before it was interned); false for a redelivery. */
  #counted(handle: number, known: number, seq: number, points: number, growth: number): boolean {
    const met = this.#ids.size > known;
    if (met) {
      this.#wait(handle, points, growth);
    } else {
      if (seq <= this.#seqs.get(handle)) return false;
      const at = this.#waitingAt(handle);
      if (at < 0) this.#placed.raise(handle, points, seq);
      else this.#waiting.addPoints(at, points);
    }
    this.#seqs.set(handle, seq, growth);
    this.#changed.add(handle, growth);
    if (seq > this.#appliedSeq) this.#appliedSeq = seq;
    if (met && this.#renumberEvery > 0 && ++this.#metSinceRenumber === this.#renumberEvery) {
      this.#metSinceRenumber = 0;
      this.#ids.moveForTest();
    }
    return true;
  }

  /**
   * Where a known player's pair is among the waiting ones, or -1 when they are placed. A waiting
   * player's `blockOf` entry holds the index of their pair (see #wait); a placed player's holds
   * a block id, which may be a valid index too, but of a pair that is not theirs.
   */
  #waitingAt(handle: number): number {
    const at = this.#placed.order.parked(handle);
    return at < this.#waiting.count && this.#waiting.handleAt(at) === handle ? at : -1;
  }

  /**
   * Puts back a saved entry; the caller then sets the seq the saved state was taken at. Restored
   * players are placed together, in seq order, before the next read or win.
   */
  restore(entry: RankingEntry): void {
    const known = this.#ids.size;
    const growth = this.#growth(this.#placed.size, known);
    const handle = this.#ids.intern(entry.userId, growth);
    if (this.#ids.size > known) {
      this.#wait(handle, entry.score, growth);
    } else {
      const at = this.#waitingAt(handle);
      if (at >= 0) this.#waiting.setScore(at, entry.score);
      else {
        this.#placed.take(handle);
        this.#placed.place(handle, entry.score, entry.seq);
      }
    }
    this.#seqs.set(handle, entry.seq, growth);
  }

  /** Marks the ranking as holding every win up to `seq` (after a restore). */
  restoredUpTo(seq: number): void {
    this.#placePending();
    this.#appliedSeq = Math.max(this.#appliedSeq, seq);
  }

  standing(userId: string): Standing | undefined {
    this.#placePending();
    const handle = this.#ids.handleOf(userId);
    return handle < 0 ? undefined : this.#placed.standingOf(userId, handle);
  }

  /** Up to `limit` players from position `offset` (0-based), best first. */
  top(offset: number, limit: number): Standing[] {
    this.#placePending();
    if (offset === 0 && limit <= TOP_LIST_SIZE) {
      this.#topList ??= this.#walked(0, TOP_LIST_SIZE);
      return this.#topList.slice(0, limit);
    }
    return this.#walked(offset, limit);
  }

  #walked(offset: number, limit: number): Standing[] {
    const standings: Standing[] = [];
    this.#placed.walk(offset, limit, (handle, score, rank) => {
      standings.push({ userId: this.#ids.idOf(handle), score, rank });
    });
    return standings;
  }

  /** The player with up to `n` players above and `n` below, in rank order; undefined for an unknown player. */
  around(userId: string, n: number): Standing[] | undefined {
    this.#placePending();
    const handle = this.#ids.handleOf(userId);
    if (handle < 0) return undefined;
    const position = this.#placed.order.positionOf(handle);
    const from = Math.max(0, position - n);
    return this.top(from, position + n + 1 - from);
  }

  /** Every player in rank order, with rank; stops early when `visit` returns false. */
  forEachStanding(visit: (standing: Standing, seq: number) => boolean | void): void {
    this.#placePending();
    this.#placed.walk(0, this.size, (handle, score, rank) =>
      visit({ userId: this.#ids.idOf(handle), score, rank }, this.#seqs.get(handle)),
    );
  }

  /**
   * Takes the players changed since the last call; the set starts empty again. A checkpoint save
   * writes them and then ends the list (which gives them back if the save failed).
   */
  takeChanges(): TakenChanges {
    return this.#changed.takeChanges((handle) => this.#entryOf(handle));
  }

  #entryOf(handle: number): RankingEntry {
    // A player not placed yet keeps their score apart: a checkpoint during a long replay reads it
    // there instead of placing everyone met so far.
    const at = this.#waitingAt(handle);
    return {
      userId: this.#ids.idOf(handle),
      score: at < 0 ? this.#placed.scoreOf(handle, -1) : this.#waiting.scoreAt(at),
      seq: this.#seqs.get(handle),
    };
  }

  /**
   * The id table moved every player to `map[handle]` (-1: no player there) in `capacity` slots: the
   * columns, the order, the high scores, the waiting pairs and the saves' lists (in #changed) follow. Every
   * column keyed by handle is made `capacity` long, so no later write past it grows one. A waiting
   * player's pair index needs no new park: it is in their id table slot, which the rehash moved
   * with them (SlotWords).
   */
  #renumber(map: Int32Array, capacity: number): void {
    this.#seqs.renumber(map, capacity);
    this.#changed.renumber(map, capacity);
    this.#placed.renumber(map, capacity);
    this.#waiting.renumber(map);
  }

  /**
   * How much the id table and the columns grow when full: by BULK_GROWTH while the players waiting
   * to be placed are at least as many as those placed (a replay or a restore, which ends in a bulk
   * placement that trims them), else by TABLE_GROWTH, which keeps the unused capacity small: the
   * columns keyed by handle are as long as the table (see #renumber), so its load is theirs.
   */
  #growth(placed: number, known: number): number {
    if (known - placed < placed) return TABLE_GROWTH;
    this.#oversized = true;
    return BULK_GROWTH;
  }

  /** A player met or restored waits to be placed: their pair's index is kept in their `blockOf` entry. */
  #wait(handle: number, score: number, growth: number): void {
    this.#placed.order.park(handle, this.#waiting.add(handle, score, growth), growth);
  }

  /** Places the players met or restored since the last read (see placeWaiting). */
  #placePending(): void {
    if (this.#waiting.count === 0) return;
    const { handles, scores } = this.#waiting.take();
    if (placeWaiting(this.#placed, this.#seqs, handles, scores, this.#bulkPlacement)) this.#trimAfterReplay();
  }

  #trimAfterReplay(): void {
    // A bulk placement ends a replay or a restore: the capacity its growth (by BULK_GROWTH, or a
    // reserve) left unused goes back. Only then: a trim after a running growth would
    // be undone by the next new player, two copies of every column for nothing.
    if (!this.#oversized) return;
    this.#oversized = false;
    this.#ids.trim();
    this.#seqs.trim(this.#ids.capacity);
    this.#changed.trim(this.#ids.capacity);
  }
}
