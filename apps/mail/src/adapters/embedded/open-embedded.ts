/**
 * The embedded mail ports over one data directory: SQLite files for the queue, the metadata,
 * the search index, the push backlog and the small blobs (one file each, so one busy role does
 * not hold another's write lock), and blob files for the larger ones.
 */
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openSqlite } from '@tessera/kit/sqlite';
import type { MailPorts } from '../../ports.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { SqliteMetadataStore } from './sqlite-metadata-store.ts';
import { SqlitePush } from './sqlite-push.ts';
import { SqliteQueue } from './sqlite-queue.ts';
import { SqliteSearchIndex } from './sqlite-search-index.ts';
import { MailWalCheckpointers, walWriter, type MailDbFile, type WalRestartFlags } from './wal-checkpoints.ts';

export interface EmbeddedMailOptions {
  /** The platform's DATA_DIR; mail keeps its files under `<dataDir>/mail`. */
  readonly dataDir: string;
  readonly now?: () => number;
  /** `full` survives power loss; `normal` a process crash only (faster). */
  readonly synchronous?: 'full' | 'normal';
  /**
   * WAL checkpoints off the committing threads (wal-checkpoints.ts): `own` starts the files'
   * checkpointers here (closed with the ports); flags (another opening's `walRestarts`, e.g. the
   * consumer thread's) make these connections writers for those checkpointers. Absent: SQLite's
   * automatic checkpoint, inside the commits.
   */
  readonly walCheckpoints?: 'own' | WalRestartFlags;
  /** How often the checkpointers copy back (default a second; tests shorten it). */
  readonly walCheckpointMs?: number;
}

/**
 * metadata.db is read far more than written (every list and message view) and its rows are
 * large: reading its pages through a memory map saves a read call and a copy per page. SQLite
 * caps the map at its build's limit (2 GiB for node:sqlite); pages past it are read as before.
 */
export const METADATA_MMAP_BYTES = 2 ** 31;

/** Blobs up to this size (most messages) are rows of blobs.db; larger ones are files. */
export const SMALL_BLOB_BYTES = 256 * 1024;

/**
 * How long queue.db's group commit waits for another connection's lock on the event loop before
 * it waits in SQLite (which sleeps the thread, SMTP included, a millisecond and more a try): the
 * consumer thread's claims and acks hold it well under a millisecond; a longer hold (another
 * process) is waited for as before, not spun on.
 */
const QUEUE_YIELD_WHILE_BUSY_MS = 20;

/** The embedded ports; the push adapter's own methods too (the consumer thread observes it). */
export interface EmbeddedMailPorts extends MailPorts {
  readonly push: SqlitePush;
  /** The restart flags of the files' checkpointers, for another opening (with `walCheckpoints`). */
  readonly walRestarts?: WalRestartFlags;
  /** The checkpointers, when this opening started them (`walCheckpoints: 'own'`). */
  readonly walCheckpointers?: MailWalCheckpointers;
}

export function openEmbeddedMail(options: EmbeddedMailOptions): EmbeddedMailPorts {
  const dir = join(options.dataDir, 'mail');
  const sqlite = { synchronous: options.synchronous ?? 'full' } as const;
  const queueDb = openSqlite(join(dir, 'queue.db'), sqlite);
  const metadataDb = openSqlite(join(dir, 'metadata.db'), sqlite);
  metadataDb.exec(`PRAGMA mmap_size = ${METADATA_MMAP_BYTES}`);
  const searchDb = openSqlite(join(dir, 'search.db'), sqlite);
  const pushDb = openSqlite(join(dir, 'push.db'), sqlite);
  const blobsDb = openSqlite(join(dir, 'blobs.db'), sqlite);
  const checkpointers =
    options.walCheckpoints === 'own'
      ? new MailWalCheckpointers(dir, sqlite.synchronous, { intervalMs: options.walCheckpointMs })
      : undefined;
  const flags =
    checkpointers?.flags ?? (options.walCheckpoints === 'own' ? undefined : options.walCheckpoints);
  const group = (db: DatabaseSync, name: MailDbFile) =>
    flags === undefined ? {} : { beforeBegin: walWriter(db, flags, name, checkpointers?.failures(name)) };
  const queue = new SqliteQueue(queueDb, options.now, {
    yieldWhileBusyMs: QUEUE_YIELD_WHILE_BUSY_MS,
    ...group(queueDb, 'queue'),
  });
  const metadata = new SqliteMetadataStore(metadataDb, options.now, group(metadataDb, 'metadata'));
  const blobs = new FileBlobStore(join(dir, 'blobs'), {
    fsync: sqlite.synchronous === 'full',
    small: { db: blobsDb, maxBytes: SMALL_BLOB_BYTES, group: group(blobsDb, 'blobs') },
  });
  const search = new SqliteSearchIndex(searchDb, group(searchDb, 'search'));
  const push = new SqlitePush(pushDb, { now: options.now, group: group(pushDb, 'push') });
  return {
    queue,
    metadata,
    blobs,
    search,
    push,
    ...(flags === undefined ? {} : { walRestarts: flags }),
    ...(checkpointers === undefined ? {} : { walCheckpointers: checkpointers }),
    /**
     * Call after every other opening's writers stopped (the consumer thread's: mail.ts closes it
     * first). The writes submitted commit, the connections close, and the checkpointers last:
     * no writer is left to take a restart's flag, and the final copy-back is their threads'.
     */
    async close() {
      await Promise.all([queue, metadata, blobs, search, push].map((port) => port.closeWrites()));
      for (const db of [queueDb, metadataDb, searchDb, pushDb, blobsDb]) if (db.isOpen) db.close();
      await checkpointers?.close();
    },
  };
}
