/**
 * Blobs (raw messages, attachments) as files under a directory. A blob is written to a
 * temporary name and renamed, so a crash leaves either the whole blob or none. With `fsync`
 * (DATA_FSYNC, as SQLite's synchronous=full) the file is synced before the rename and survives
 * power loss; without it, a process crash (kill -9) only, the same promise the SQLite files
 * make then — and one fsync per message was the largest cost of receiving mail.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../ports.ts';

// Keys are built by the service, never taken from a request, but a bad one must not escape the root.
const KEY = /^[A-Za-z0-9_@.+=-]+(\/[A-Za-z0-9_@.+=-]+)*$/;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export class FileBlobStore implements BlobStore {
  readonly #root: string;
  readonly #fsync: boolean;

  constructor(root: string, options: { fsync?: boolean } = {}) {
    this.#root = root;
    this.#fsync = options.fsync ?? true;
  }

  #path(key: string): string {
    if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) {
      throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    }
    return join(this.#root, key);
  }

  async put(key: string, data: Buffer | Readable): Promise<number> {
    const path = this.#path(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.tmp-${randomUUID()}`;
    const file = await open(temp, 'w');
    let size = 0;
    try {
      for await (const chunk of Buffer.isBuffer(data) ? [data] : data) {
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

  async get(key: string): Promise<Readable | undefined> {
    const path = this.#path(key);
    try {
      await stat(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return createReadStream(path);
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.#path(key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }
}
