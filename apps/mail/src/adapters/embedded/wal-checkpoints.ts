/**
 * Mail's SQLite checkpoints off the threads that commit (issue 13): SQLite's automatic checkpoint
 * runs inside the COMMIT that crosses 1,000 WAL pages and waits for the disk (~13 ms here), on
 * the SMTP thread (blobs.db, queue.db) or the consumer thread (metadata.db, search.db). Instead
 * every writing connection turns it off and one kit `WalCheckpointer` a file copies the WAL back
 * on a thread of its own, at the file's synchronous setting.
 *
 * Durability is the same as with the automatic checkpoint: a commit is durable by its WAL frames
 * (fsynced at FULL, written at NORMAL, as before); a checkpoint only copies committed frames into
 * the database file and syncs the WAL before and the file after, whichever thread runs it.
 *
 * The WAL restarts as the kit's writers do it (`WalCheckpointer#takeRestart`, `walCopyBack`):
 * the checkpointers live on the main thread, the writers on two (main, consumer), so a request is a
 * flag of shared memory a file, raised at the round that asks for it (`WalCheckpointer#onRound`)
 * and taken by whichever connection begins a group commit next, just before its BEGIN; it
 * copies back the few frames since the round on its own connection, and its transaction starts
 * the WAL over.
 */
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import {
  WalCheckpointer,
  walCopyBack,
  type WalCheckpoints,
  type WalCopyBackFailures,
} from '@tessera/kit/sqlite';

export const MAIL_DB_FILES = ['queue', 'metadata', 'search', 'push', 'blobs'] as const;
export type MailDbFile = (typeof MAIL_DB_FILES)[number];

/** One flag a file (MAIL_DB_FILES' order): 1 when its next writer should copy back first. */
export type WalRestartFlags = Int32Array;

export function walRestartFlags(): WalRestartFlags {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * MAIL_DB_FILES.length));
}

/** How often a checkpointer copies back (as the exchange's journal and the leaderboard's win log). */
const CHECKPOINT_EVERY_MS = 1000;

/** The five checkpointers of a data directory's mail files, and the restart flags they raise. */
export class MailWalCheckpointers {
  readonly flags: WalRestartFlags;
  readonly #checkpointers: ReadonlyMap<MailDbFile, WalCheckpointer>;

  /** The files must exist (opened, in WAL mode) before: a checkpointer's thread opens them. */
  constructor(
    dir: string,
    synchronous: 'full' | 'normal',
    options: { intervalMs?: number | undefined } = {},
  ) {
    this.flags = walRestartFlags();
    this.#checkpointers = new Map(
      MAIL_DB_FILES.map((name) => [
        name,
        new WalCheckpointer(join(dir, `${name}.db`), synchronous, options.intervalMs ?? CHECKPOINT_EVERY_MS),
      ]),
    );
    // A round that asks for a restart raises its file's flag at once (the writers cannot ask).
    MAIL_DB_FILES.forEach((name, i) => {
      const checkpointer = this.#checkpointers.get(name);
      checkpointer?.onRound(() => {
        if (checkpointer.takeRestart()) Atomics.store(this.flags, i, 1);
      });
    });
  }

  /** The file's copy-back failures go to its checkpointer's stats. */
  failures(name: MailDbFile): WalCopyBackFailures | undefined {
    return this.#checkpointers.get(name);
  }

  /** How each file's checkpoints went (tests, diagnostics). */
  stats(): Record<MailDbFile, WalCheckpoints | undefined> {
    const entries = MAIL_DB_FILES.map((name) => [name, this.#checkpointers.get(name)?.stats] as const);
    return Object.fromEntries(entries) as Record<MailDbFile, WalCheckpoints | undefined>;
  }

  /** After every writer of the files stopped (both threads'): a writer's copy-back needs none. */
  async close(): Promise<void> {
    await Promise.all([...this.#checkpointers.values()].map((c) => c.close()));
  }
}

/**
 * A writing connection's part: its automatic checkpoint off, and the hook its group commits run
 * just before taking the lock (GroupWritesOptions.beforeBegin): the copy-back, when the file's flag is up.
 * `failures`: where a copy-back that failed is told (a warning when absent: the consumer thread).
 */
export function walWriter(
  db: DatabaseSync,
  flags: WalRestartFlags,
  name: MailDbFile,
  failures?: WalCopyBackFailures,
): () => void {
  db.exec('PRAGMA wal_autocheckpoint = 0');
  const index = MAIL_DB_FILES.indexOf(name);
  const copyBack = walCopyBack(db, failures);
  return () => {
    if (Atomics.exchange(flags, index, 0) === 1) copyBack();
  };
}
