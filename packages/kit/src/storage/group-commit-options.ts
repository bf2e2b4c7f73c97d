/** What a SqliteGroupCommit is given (group-commit.ts): its commit, and who owns the durability. */
import type { DatabaseSync } from 'node:sqlite';

/** `fs.fdatasync`'s shape, so that a test can make it fail. */
export type SyncFile = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;

export interface CommonOptions<Item, Result> {
  /** The one writer connection to its file; it must outlive the group commit. */
  readonly db: DatabaseSync;
  /** Commits a group in one transaction, synchronously; throws having rolled it back. */
  readonly commit: (items: readonly Item[]) => readonly Result[];
  /**
   * While a sync runs, hold a group's commit so that the next group grows: until the sync ends,
   * or until this long (µs, from its first item) has passed when a later turn submits (no timer
   * of its own looks again). 0 (default): commit at once.
   */
  readonly holdMicros?: number;
  /**
   * While another connection holds the write lock, the group waits on the event loop (tried again
   * each turn, joined by the items submitted meanwhile) up to this long (ms) before it commits
   * (and waits, if it must, in SQLite's busy handler as without it). Absent: it commits at once.
   */
  readonly yieldWhileBusyMs?: number;
  /**
   * Runs outside any transaction just before each group's commit takes the write lock, after the
   * wait for it (a WAL copy-back, which must come right before the transaction that restarts the
   * WAL); it must not throw.
   */
  readonly beforeBegin?: () => void;
}

/** The group commit owns the durability: see the module's comment. */
export interface GroupDurability {
  readonly durability?: 'group';
  /** The database file (WAL mode): its WAL is what is synced. */
  readonly file: string;
  /** False: no fdatasync, a commit survives a process crash but not a power loss (default true). */
  readonly durable?: boolean;
  /** Tests: the sync (default `fs.fdatasync`). */
  readonly sync?: SyncFile;
}

/**
 * The connection's own settings stand (its `synchronous`, its automatic checkpoint or a
 * checkpointer's): an item resolves once its transaction committed, as durable as they make it;
 * no fdatasync runs here, and the file need not be in WAL mode.
 */
export interface ConnectionDurability {
  readonly durability: 'connection';
}

export type GroupCommitOptions<Item, Result> = CommonOptions<Item, Result> &
  (GroupDurability | ConnectionDurability);
