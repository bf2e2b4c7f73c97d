/**
 * A group commit on the event loop for one SQLite writer connection in WAL mode: the items
 * submitted in one turn commit in one transaction (no fsync: `synchronous = NORMAL`), then one
 * `fdatasync` of the WAL file on libuv's thread pool makes them durable, and only then do their
 * promises resolve. While a sync runs, the next turns' transactions commit and wait for the next
 * sync together: the slower the disk, the larger the groups. The durability argument (checkpoints,
 * WAL restarts, which file is synced) is written down in docs/leaderboard.md, "Durability".
 * With `durability: 'connection'` the connection's own settings make the commits durable instead
 * (mail: `synchronous = FULL` syncs in each COMMIT), and the group commit only groups them.
 */
import { closeSync, fdatasync, fstatSync } from 'node:fs';
import { WriteLockProbe } from '../sqlite-write-lock.ts';
import type { GroupCommitOptions, SyncFile } from './group-commit-options.ts';
import { openWal } from './group-commit-wal.ts';

export type { GroupCommitOptions, SyncFile } from './group-commit-options.ts';

interface Waiting<Result> {
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

export class SqliteGroupCommit<Item, Result> {
  readonly #commit: (items: readonly Item[]) => readonly Result[];
  readonly #durable: boolean;
  readonly #sync: SyncFile;
  readonly #holdNs: bigint;
  readonly #beforeBegin: (() => void) | undefined;
  readonly #lock: WriteLockProbe | undefined;
  readonly #yieldWhileBusyMs: number;
  /** When the group now waiting first found the write lock taken (performance.now()). */
  #busySince: number | undefined;
  /** When the oldest queued item came (hrtime, ns). */
  #queuedSince = 0n;
  /** The live WAL: SQLite never unlinks it while `db` is open (see the docs); none for 'connection'. */
  readonly #wal: number | undefined;
  /** Submitted, not yet committed, and who waits for each (same index): no entry object per item. */
  #queued: Item[] = [];
  #queuedWaiting: Array<Waiting<Result>> = [];
  #scheduled = false;
  /** Committed, waiting for the next sync: the results and, at the same index, their waiters. */
  #unsynced: Result[] = [];
  #unsyncedWaiting: Array<Waiting<Result>> = [];
  #syncing = false;
  #closed = false;
  #closing: Promise<void> | undefined;
  #failed: Error | undefined;
  readonly #idle: Array<() => void> = [];

  constructor(options: GroupCommitOptions<Item, Result>) {
    // Checked before anything is opened: a constructor that throws leaves no descriptor behind.
    const holdMicros = options.holdMicros ?? 0;
    if (!Number.isFinite(holdMicros) || holdMicros < 0) throw new RangeError(`holdMicros: ${holdMicros}`);
    this.#holdNs = BigInt(Math.round(holdMicros * 1000));
    this.#commit = options.commit;
    this.#beforeBegin = options.beforeBegin;
    this.#yieldWhileBusyMs = options.yieldWhileBusyMs ?? 0;
    this.#lock = options.yieldWhileBusyMs === undefined ? undefined : new WriteLockProbe(options.db);
    if (options.durability === 'connection') {
      this.#durable = false;
      this.#sync = fdatasync;
      return;
    }
    this.#durable = options.durable ?? true;
    this.#sync = options.sync ?? fdatasync;
    this.#wal = openWal(options.db, options.file, this.#durable);
  }

  /** Why every commit is refused from now on (a failed fdatasync), if it is: readiness shows it. */
  get failure(): Error | undefined {
    return this.#failed;
  }

  /** The WAL's inode, as opened (tests: it must stay the live file's). */
  get walInode(): number {
    if (this.#wal === undefined) throw new Error("durability 'connection': no WAL of its own");
    return fstatSync(this.#wal).ino;
  }

  /** Resolves once the item's transaction committed and the WAL was synced after it. */
  submit(item: Item): Promise<Result> {
    if (this.#failed !== undefined) return Promise.reject(this.#failed);
    if (this.#closed) return Promise.reject(new Error('group commit is closed'));
    return new Promise((resolve, reject) => {
      if (this.#queued.length === 0 && this.#holdNs > 0n) this.#queuedSince = process.hrtime.bigint();
      this.#queued.push(item);
      this.#queuedWaiting.push({ resolve, reject });
      if (!this.#scheduled) {
        // Not at once: the submits of this turn of the event loop go together.
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /**
   * Stops taking items and waits for those submitted to commit and sync (or fail). A second call
   * answers the first's promise: it too resolves only once the WAL's descriptor is closed.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    if (this.#scheduled || this.#syncing || this.#unsynced.length > 0) {
      await new Promise<void>((resolve) => this.#idle.push(resolve));
    }
    if (this.#wal !== undefined) closeSync(this.#wal);
  }

  #flush(): void {
    this.#scheduled = false;
    // Held: the next submit's turn looks again, and the sync's end commits it.
    if (this.#held() || this.#waitsForLock()) return;
    const group = this.#queued;
    const waiting = this.#queuedWaiting;
    this.#queued = [];
    this.#queuedWaiting = [];
    if (this.#failed !== undefined) {
      for (const waiter of waiting) waiter.reject(this.#failed);
      return this.#settled();
    }
    this.#beforeBegin?.();
    let results: readonly Result[];
    try {
      results = this.#commit(group);
    } catch (error) {
      for (const waiter of waiting) waiter.reject(error);
      return this.#settled();
    }
    if (!this.#durable) {
      for (let i = 0; i < waiting.length; i++) waiting[i]!.resolve(results[i]!);
      return this.#settled();
    }
    for (let i = 0; i < waiting.length; i++) {
      this.#unsynced.push(results[i]!);
      this.#unsyncedWaiting.push(waiting[i]!);
    }
    this.#startSync();
  }

  #held(): boolean {
    if (this.#holdNs === 0n || !this.#syncing || this.#failed !== undefined) return false;
    return process.hrtime.bigint() - this.#queuedSince < this.#holdNs;
  }

  /**
   * True when another connection holds the write lock and the group waits a turn more (see
   * `yieldWhileBusyMs`); false when it goes on to commit: the lock is free, or it waited long enough.
   */
  #waitsForLock(): boolean {
    if (this.#lock === undefined || this.#failed !== undefined || this.#lock.free()) {
      this.#busySince = undefined;
      return false;
    }
    const now = performance.now();
    this.#busySince ??= now;
    if (now - this.#busySince >= this.#yieldWhileBusyMs) {
      this.#busySince = undefined;
      return false;
    }
    this.#scheduled = true;
    setImmediate(() => this.#flush());
    return true;
  }

  /** One sync at a time; it covers every transaction committed before it began. */
  #startSync(): void {
    const wal = this.#wal;
    if (this.#syncing || this.#unsynced.length === 0 || wal === undefined) return this.#settled();
    this.#syncing = true;
    const covered = this.#unsynced;
    const waiting = this.#unsyncedWaiting;
    this.#unsynced = [];
    this.#unsyncedWaiting = [];
    this.#sync(wal, (error) => {
      this.#syncing = false;
      if (error !== null) return this.#fail(error, waiting);
      for (let i = 0; i < waiting.length; i++) waiting[i]!.resolve(covered[i]!);
      if (this.#queued.length > 0 && !this.#scheduled) this.#flush();
      else this.#startSync();
    });
  }

  /**
   * A failed fdatasync leaves unknown what reached the disk, and a later one may succeed without
   * writing the pages this one lost: every commit not yet synced is refused, and so is every
   * item after, until the process opens the file again.
   */
  #fail(error: NodeJS.ErrnoException, covered: ReadonlyArray<Waiting<Result>>): void {
    const failed = new Error(`fdatasync of the WAL failed; no more commits: ${error.message}`, {
      cause: error,
    });
    this.#failed = failed;
    for (const waiter of [...covered, ...this.#unsyncedWaiting]) waiter.reject(failed);
    this.#unsynced = [];
    this.#unsyncedWaiting = [];
    // Held ones too (none when nothing is held: they wait for their turn's flush).
    if (!this.#scheduled) {
      this.#queued = [];
      for (const waiter of this.#queuedWaiting.splice(0)) waiter.reject(failed);
    }
    this.#settled();
  }

  /** Wakes close() once nothing is queued, committing or syncing. */
  #settled(): void {
    if (this.#scheduled || this.#syncing || this.#unsynced.length > 0 || this.#queued.length > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
