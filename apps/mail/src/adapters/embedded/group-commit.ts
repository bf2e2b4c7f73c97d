/**
 * Group commit for one SQLite file: the writes callers issue during one turn of the event loop
 * share one transaction, committed on the next turn (setImmediate), instead of one COMMIT each
 * (each COMMIT writes its pages to the WAL again, and FTS5 flushes a segment per transaction).
 *
 * Durability is unchanged: a write's promise resolves only after the COMMIT that holds it, so
 * whatever a caller was told is written (a 250 to an SMTP client, an ack) is on disk as it would
 * have been alone. Each write is atomic, and one that throws is undone alone (a savepoint of the
 * group's transaction), so the adapters' writes need no transaction of their own. When SQLite rolls the whole transaction back (I/O error, full disk) or COMMIT
 * fails, every write of the group fails.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';

interface PendingWrite {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: Error };

/** SQLite's primary codes for a lock another connection holds (extended codes keep it in the low byte). */
function heldByOther(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export interface GroupCommitOptions {
  readonly busyTimeoutMs?: number;
  readonly yieldWhileBusyMs?: number;
  readonly beforeBegin?: () => void;
}

export class GroupCommit {
  readonly #db: DatabaseSync;
  // Prepared once: they run for every group and every write, and db.exec would parse them each time.
  readonly #begin: StatementSync;
  readonly #commit: StatementSync;
  readonly #rollback: StatementSync;
  readonly #savepoint: StatementSync;
  readonly #release: StatementSync;
  readonly #undo: StatementSync;
  readonly #busyTimeout: StatementSync;
  readonly #busyTimeoutMs: number | undefined;
  readonly #yieldWhileBusyMs: number | undefined;
  readonly #beforeBegin: (() => void) | undefined;
  /** When the group now waiting first found the write lock taken (performance.now()). */
  #busySince: number | undefined;
  /** #tryBegin's transaction, open for the flush that follows it at once. */
  #began = false;
  #pending: PendingWrite[] = [];
  #scheduled = false;
  /** Transactions committed and writes they held, since the start (tests, diagnostics). */
  readonly stats = { commits: 0, writes: 0 };

  /**
   * `busyTimeoutMs`: how long this group's BEGIN waits for another connection's write lock,
   * instead of the connection's own timeout; set only while the group takes the lock (the flush
   * is synchronous, so no other statement of the connection sees it).
   *
   * `yieldWhileBusyMs`: when another connection holds the write lock, the group waits on the
   * event loop (tried again each turn, joined by the writes made meanwhile) for up to this long,
   * instead of in SQLite's busy handler, which sleeps the thread a millisecond and more a try: a
   * thread that also serves SMTP keeps answering while another thread commits. After it, the
   * group waits as without it (the connection's own timeout, or `busyTimeoutMs`).
   *
   * `beforeBegin`: run before each group's BEGIN, outside any transaction (the WAL copy-back a
   * checkpointer asks for, wal-checkpoints.ts); it must not throw.
   */
  constructor(db: DatabaseSync, options: GroupCommitOptions = {}) {
    this.#db = db;
    this.#busyTimeoutMs = options.busyTimeoutMs;
    this.#yieldWhileBusyMs = options.yieldWhileBusyMs;
    this.#beforeBegin = options.beforeBegin;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
    this.#savepoint = db.prepare('SAVEPOINT group_write');
    this.#release = db.prepare('RELEASE group_write');
    this.#undo = db.prepare('ROLLBACK TO group_write');
    this.#busyTimeout = db.prepare('PRAGMA busy_timeout');
  }

  /**
   * Runs `write` (synchronous SQLite statements, atomic: all or none) in the next group;
   * resolves once it is committed.
   */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    if (!this.#began) this.#beforeBegin?.();
    if (this.#yieldToLock()) return;
    const group = this.#pending;
    this.#pending = [];
    let outcomes: Outcome[];
    try {
      this.#lock();
      // A group of one needs no savepoint: its failure rolls the transaction back (below).
      outcomes =
        group.length === 1 ? [{ ok: true, value: group[0]?.write() }] : group.map((w) => this.#apply(w));
      this.#commit.run();
    } catch (error) {
      try {
        if (this.#db.isOpen && this.#db.isTransaction) this.#rollback.run();
      } finally {
        for (const pending of group) pending.reject(asError(error));
      }
      return;
    }
    this.stats.commits++;
    this.stats.writes += group.length;
    group.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) pending.reject(new Error('group commit lost a write'));
      else if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /**
   * With `yieldWhileBusyMs`: true when the write lock is taken and the group waits a turn (its
   * flush is scheduled again); false when the group goes on to #lock: the lock is taken (by
   * #tryBegin), or it has waited long enough, or the try failed otherwise (#lock then fails the
   * group as it would have).
   */
  #yieldToLock(): boolean {
    if (this.#yieldWhileBusyMs === undefined) return false;
    if (!this.#tryBegin()) {
      const now = performance.now();
      this.#busySince ??= now;
      if (now - this.#busySince < this.#yieldWhileBusyMs) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
        return true;
      }
    }
    this.#busySince = undefined;
    return false;
  }

  /**
   * BEGIN IMMEDIATE without waiting; false only when another connection holds the write lock
   * (any other failure is #lock's to meet again and report).
   */
  #tryBegin(): boolean {
    try {
      this.#withBusyTimeout(0, () => this.#begin.run());
      this.#began = true;
    } catch (error) {
      return !heldByOther(error);
    }
    return true;
  }

  /** BEGIN IMMEDIATE (unless #tryBegin took the lock), with this group's own busy timeout when it has one. */
  #lock(): void {
    if (this.#began) {
      this.#began = false;
      return;
    }
    if (this.#busyTimeoutMs === undefined) {
      this.#begin.run();
      return;
    }
    this.#withBusyTimeout(this.#busyTimeoutMs, () => this.#begin.run());
  }

  /** Runs `fn` with the connection's busy timeout set to `ms`, then puts the old one back. */
  #withBusyTimeout(ms: number, fn: () => unknown): void {
    const before = (this.#busyTimeout.get() as { timeout: number }).timeout;
    this.#db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(ms))}`);
    try {
      fn();
    } finally {
      this.#db.exec(`PRAGMA busy_timeout = ${before}`);
    }
  }

  /** One write of a larger group, in a savepoint: undone alone if it throws. */
  #apply(pending: PendingWrite): Outcome {
    this.#savepoint.run();
    try {
      const value = pending.write();
      this.#release.run();
      return { ok: true, value };
    } catch (error) {
      // SQLite ended the whole transaction: nothing of the group is written.
      if (!this.#db.isTransaction) throw error;
      this.#undo.run();
      this.#release.run();
      return { ok: false, error: asError(error) };
    }
  }
}
