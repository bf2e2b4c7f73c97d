/**
 * Blobs (raw messages, attachments) as files under a directory. A blob is written to a
 * temporary name and renamed, so a crash leaves either the whole blob or none. With `fsync`
 * (DATA_FSYNC, as SQLite's synchronous=full) the file is synced before the rename and survives
 * power loss; without it, a process crash (kill -9) only, the same promise the SQLite files
 * make then — and one fsync per message was the largest cost of receiving mail.
 *
 * With `small` (a SQLite file), a blob given as a buffer of at most `maxBytes` is a row of its
 * `blobs` table instead, written by a group commit (those of one event-loop turn share a
 * transaction): creating and renaming a file per message cost ten times the kernel time of a
 * row, and the row is exactly as durable as the SQLite files beside it. Reads look at the table
 * first, then the files.
 *
 * The blobs put lately stay in memory for one `read` in this process (a hand-off, up to
 * `handOffBytes`, oldest dropped first): the worker gets the bytes smtp-in just wrote without
 * reading them back. They are written all the same, so nothing depends on the hand-off.
 */
import { createReadStream, writeFile as writeFileCallback } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { BlobStore } from '../../ports.ts';
import { GroupWrites, type GroupWritesOptions } from './group-writes.ts';
import { settle } from './settle.ts';

// Keys are built by the service, never taken from a request, but a bad one must not escape the root.
const KEY = /^[A-Za-z0-9_@.+=-]+(\/[A-Za-z0-9_@.+=-]+)*$/;

// The callback API: a whole buffer written without a FileHandle object per blob.
const writeFile = promisify(writeFileCallback);

/** Blobs larger than this are never kept for a hand-off. */
const HAND_OFF_MAX_BLOB = 1024 * 1024;

const SCHEMA = 'CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, data BLOB NOT NULL)';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export interface FileBlobStoreOptions {
  /** Sync each file before its rename (DATA_FSYNC); default true. */
  readonly fsync?: boolean;
  /** Bytes of recently put blobs kept for one read (default 16 MiB; 0: none). */
  readonly handOffBytes?: number;
  /** Small blobs as rows of this SQLite file (its own durability settings apply). */
  readonly small?: {
    readonly db: DatabaseSync;
    readonly maxBytes: number;
    readonly group?: GroupWritesOptions;
  };
}

/** The SQLite table of small blobs. */
class BlobTable {
  readonly maxBytes: number;
  readonly #group: GroupWrites;
  readonly #put: StatementSync;
  readonly #get: StatementSync;
  readonly #delete: StatementSync;

  constructor(db: DatabaseSync, maxBytes: number, group: GroupWritesOptions = {}) {
    db.exec(SCHEMA);
    this.maxBytes = maxBytes;
    this.#group = new GroupWrites(db, group);
    this.#put = db.prepare('INSERT OR REPLACE INTO blobs (key, data) VALUES (?, ?)');
    this.#get = db.prepare('SELECT data FROM blobs WHERE key = ?');
    this.#delete = db.prepare('DELETE FROM blobs WHERE key = ?');
  }

  closeWrites(): Promise<void> {
    return this.#group.close();
  }

  put(key: string, data: Buffer): Promise<void> {
    return this.#group.run(() => {
      this.#put.run(key, data);
    });
  }

  read(key: string): Promise<Buffer | undefined> {
    return settle(() => {
      const row = this.#get.get(key) as { data: Uint8Array } | undefined;
      return row === undefined
        ? undefined
        : Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    });
  }

  delete(key: string): Promise<void> {
    return this.#group.run(() => {
      this.#delete.run(key);
    });
  }
}

export class FileBlobStore implements BlobStore {
  readonly #root: string;
  readonly #fsync: boolean;
  readonly #handOffBytes: number;
  readonly #small: BlobTable | undefined;
  readonly #recent = new Map<string, Buffer>();
  #recentBytes = 0;

  constructor(root: string, options: FileBlobStoreOptions = {}) {
    this.#root = root;
    this.#fsync = options.fsync ?? true;
    this.#handOffBytes = options.handOffBytes ?? 16 * 1024 * 1024;
    this.#small =
      options.small === undefined
        ? undefined
        : new BlobTable(options.small.db, options.small.maxBytes, options.small.group);
  }

  /** Stops taking writes; resolves once those submitted are committed (before the connection closes). */
  async closeWrites(): Promise<void> {
    await this.#small?.closeWrites();
  }

  #keep(key: string, data: Buffer): void {
    this.#forget(key);
    if (data.length > Math.min(HAND_OFF_MAX_BLOB, this.#handOffBytes)) return;
    this.#recent.set(key, data);
    this.#recentBytes += data.length;
    for (const [oldest, bytes] of this.#recent) {
      if (this.#recentBytes <= this.#handOffBytes) break;
      this.#recent.delete(oldest);
      this.#recentBytes -= bytes.length;
    }
  }

  #forget(key: string): void {
    const kept = this.#recent.get(key);
    if (kept === undefined) return;
    this.#recent.delete(key);
    this.#recentBytes -= kept.length;
  }

  #path(key: string): string {
    if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    }
    return join(this.#root, key);
  }

  async put(key: string, data: Buffer | Readable): Promise<number> {
    const path = this.#path(key);
    if (Buffer.isBuffer(data)) {
      if (this.#small !== undefined && data.length <= this.#small.maxBytes) {
        await this.#small.put(key, data);
        this.#keep(key, data);
        return data.length;
      }
    }
    const size = Buffer.isBuffer(data)
      ? await this.#putBuffer(path, data)
      : await this.#putStream(path, data);
    // A smaller blob of the same key, put earlier, would shadow this one.
    await this.#small?.delete(key);
    if (Buffer.isBuffer(data)) this.#keep(key, data);
    else this.#forget(key);
    return size;
  }

  async #putStream(path: string, data: Readable): Promise<number> {
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.tmp-${randomUUID()}`;
    const file = await open(temp, 'w');
    let size = 0;
    try {
      for await (const chunk of data) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        await file.write(bytes);
        size += bytes.length;
      }
      if (this.#fsync) await file.sync();
    } catch (error) {
      await file.close();
      await rm(temp, { force: true });
      throw error;
    }
    await file.close();
    await rename(temp, path);
    return size;
  }

  /** A whole buffer: written in one call, the directory made only when it is missing. */
  async #putBuffer(path: string, data: Buffer): Promise<number> {
    const temp = `${path}.tmp-${randomUUID()}`;
    const options = { flush: this.#fsync };
    try {
      try {
        await writeFile(temp, data, options);
      } catch (error) {
        if (!isMissing(error)) throw error;
        await mkdir(dirname(path), { recursive: true });
        await writeFile(temp, data, options);
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await rename(temp, path);
    return data.length;
  }

  async get(key: string): Promise<Readable | undefined> {
    const path = this.#path(key);
    const row = await this.#small?.read(key);
    if (row !== undefined) return Readable.from([row], { objectMode: false });
    try {
      await stat(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return createReadStream(path);
  }

  async read(key: string): Promise<Buffer | undefined> {
    const path = this.#path(key);
    const kept = this.#recent.get(key);
    if (kept !== undefined) {
      this.#forget(key);
      return kept;
    }
    const row = await this.#small?.read(key);
    if (row !== undefined) return row;
    try {
      return await readFile(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.#path(key);
    this.#forget(key);
    await this.#small?.delete(key);
    await rm(path, { force: true });
  }
}
