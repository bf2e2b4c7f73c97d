/**
 * The search documents of copies the worker just filed, kept in memory for the indexer of the
 * same thread (a hand-off, at most `max`, oldest dropped first): it then adds them without reading
 * each message back from the store. The backlog is the durable record; a document missing here
 * (another process filed it, a restart, dropped) is read from the store instead.
 */
import type { SearchDocument } from '../core/events.ts';

export class FiledDocs {
  readonly #docs = new Map<string, SearchDocument>();
  readonly #max: number;

  constructor(max = 4096) {
    this.#max = max;
  }

  put(doc: SearchDocument): void {
    this.#docs.set(`${doc.user_id}/${doc.email_id}`, doc);
    if (this.#docs.size <= this.#max) return;
    const oldest = this.#docs.keys().next();
    if (oldest.done !== true) this.#docs.delete(oldest.value);
  }

  /** The document, once: it is forgotten as it is taken. */
  take(userId: string, emailId: string): SearchDocument | undefined {
    const key = `${userId}/${emailId}`;
    const doc = this.#docs.get(key);
    this.#docs.delete(key);
    return doc;
  }
}
