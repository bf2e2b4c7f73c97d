/**
 * The embedded search index: FTS5 over subject, body and addresses, with the filters
 * (unread, attachment, dates) on a plain table beside it. Each user's documents carry an
 * owner token that every MATCH requires, so a query only ever walks that user's postings.
 * Upserts and removals go through a group commit: those of one event-loop turn share a
 * transaction (and FTS5 writes one segment for them, not one each).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Address } from '../../core/address.ts';
import type { SearchDocument } from '../../core/events.ts';
import type { SearchQuery } from '../../core/search-query.ts';
import type { SearchHit, SearchIndex } from '../../ports.ts';
import { GroupWrites, type GroupWritesOptions } from './group-writes.ts';
import { settle } from './settle.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL,
  email_id TEXT NOT NULL,
  folder_id TEXT NOT NULL,
  is_read INTEGER NOT NULL,
  has_attachment INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  UNIQUE (user_id, email_id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(owner, subject, body, from_addr, to_addr, tokenize = 'unicode61');
`;

/**
 * FTS5 string literal: the term is matched as a phrase and can never be read as syntax. A NUL
 * would end the query string inside SQLite ("unterminated string"); the tokenizer splits on it
 * anyway, so it becomes a space.
 */
function phrase(term: string): string {
  return `"${term.replace(/\0/g, ' ').replace(/"/g, '""')}"`;
}

/** One token per user (hex of the id) that the tokenizer keeps whole. */
function ownerToken(userId: string): string {
  return `u${Buffer.from(userId).toString('hex')}`;
}

function addresses(list: readonly Address[]): string {
  return list.map((a) => `${a.name} ${a.email}`).join(' ');
}

/** The filter columns of docs, after its keys. */
function flagsOf(doc: SearchDocument) {
  return [doc.folder_id, doc.is_read ? 1 : 0, doc.has_attachment ? 1 : 0, doc.received_at] as const;
}

/** The MATCH expression of a query: every term must match (implicit AND). */
export function matchExpression(userId: string, query: SearchQuery): string {
  const parts = [`owner : ${ownerToken(userId)}`];
  for (const t of query.text) parts.push(`{subject body from_addr to_addr} : ${phrase(t)}`);
  for (const t of query.from) parts.push(`from_addr : ${phrase(t)}`);
  for (const t of query.to) parts.push(`to_addr : ${phrase(t)}`);
  for (const t of query.subject) parts.push(`subject : ${phrase(t)}`);
  return parts.join(' AND ');
}

/**
 * addNew runs on the thread that also files mail (the indexer beside the worker): when another
 * process holds search.db's write lock, failing fast (the backlog stays, the next round tries
 * again) beats blocking the thread, and the worker's batches, for the connection's 5 s timeout.
 */
export const ADD_NEW_BUSY_MS = 50;

export class SqliteSearchIndex implements SearchIndex {
  readonly #db: DatabaseSync;
  readonly #group: GroupWrites;
  /** addNew's own group: it waits briefly for another process's lock (see ADD_NEW_BUSY_MS). */
  readonly #newGroup: GroupWrites;
  readonly #idOf: StatementSync;
  readonly #insertDoc: StatementSync;
  readonly #insertNewDoc: StatementSync;
  readonly #updateDoc: StatementSync;
  readonly #deleteDoc: StatementSync;
  readonly #insertFts: StatementSync;
  readonly #deleteFts: StatementSync;

  constructor(db: DatabaseSync, group: GroupWritesOptions = {}) {
    this.#db = db;
    this.#group = new GroupWrites(db, group);
    this.#newGroup = new GroupWrites(db, { ...group, busyTimeoutMs: ADD_NEW_BUSY_MS });
    db.exec(SCHEMA);
    this.#idOf = db.prepare('SELECT id FROM docs WHERE user_id = ? AND email_id = ?');
    this.#insertDoc = db.prepare(
      'INSERT INTO docs (user_id, email_id, folder_id, is_read, has_attachment, received_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#insertNewDoc = db.prepare(
      'INSERT INTO docs (user_id, email_id, folder_id, is_read, has_attachment, received_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id',
    );
    this.#updateDoc = db.prepare(
      'UPDATE docs SET folder_id = ?, is_read = ?, has_attachment = ?, received_at = ? WHERE id = ?',
    );
    this.#deleteDoc = db.prepare('DELETE FROM docs WHERE id = ?');
    this.#insertFts = db.prepare(
      'INSERT INTO docs_fts (rowid, owner, subject, body, from_addr, to_addr) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#deleteFts = db.prepare('DELETE FROM docs_fts WHERE rowid = ?');
  }

  /** Stops taking writes; resolves once those submitted are committed (before the connection closes). */
  async closeWrites(): Promise<void> {
    await Promise.all([this.#group.close(), this.#newGroup.close()]);
  }

  // Each a write of the group commit: atomic without a transaction of its own.
  upsert(doc: SearchDocument): Promise<void> {
    return this.#group.run(() => {
      const existing = this.#idOf.get(doc.user_id, doc.email_id) as { id: number } | undefined;
      let id: number;
      if (existing === undefined) {
        id = Number(this.#insertDoc.run(doc.user_id, doc.email_id, ...flagsOf(doc)).lastInsertRowid);
      } else {
        id = existing.id;
        this.#updateDoc.run(...flagsOf(doc), id);
        this.#deleteFts.run(id);
      }
      this.#insertText(id, doc);
    });
  }

  addNew(docs: readonly SearchDocument[]): Promise<void> {
    if (docs.length === 0) return Promise.resolve();
    return this.#newGroup.run(() => {
      for (const doc of docs) {
        // No row back: the document was there already.
        const row = this.#insertNewDoc.get(doc.user_id, doc.email_id, ...flagsOf(doc)) as
          { id: number } | undefined;
        if (row !== undefined) this.#insertText(row.id, doc);
      }
    });
  }

  #insertText(id: number, doc: SearchDocument): void {
    this.#insertFts.run(
      id,
      ownerToken(doc.user_id),
      doc.subject,
      doc.body,
      addresses([doc.from]),
      addresses([...doc.to, ...doc.cc]),
    );
  }

  remove(userId: string, emailId: string): Promise<void> {
    return this.#group.run(() => {
      const existing = this.#idOf.get(userId, emailId) as { id: number } | undefined;
      if (existing === undefined) return;
      this.#deleteFts.run(existing.id);
      this.#deleteDoc.run(existing.id);
    });
  }

  search(
    userId: string,
    query: SearchQuery,
    options: { limit: number; before?: string },
  ): Promise<SearchHit[]> {
    return settle(() => {
      const where = ['d.user_id = ?'];
      const params: (string | number)[] = [userId];
      const fullText = query.text.length + query.from.length + query.to.length + query.subject.length > 0;
      if (query.unread !== undefined) {
        where.push('d.is_read = ?');
        params.push(query.unread ? 0 : 1);
      }
      if (query.hasAttachment === true) where.push('d.has_attachment = 1');
      if (query.before !== undefined) {
        where.push('d.received_at < ?');
        params.push(query.before);
      }
      if (query.after !== undefined) {
        where.push('d.received_at >= ?');
        params.push(query.after);
      }
      if (options.before !== undefined) {
        where.push('d.email_id < ?');
        params.push(options.before);
      }
      const sql = fullText
        ? `SELECT d.email_id, d.received_at FROM docs_fts f JOIN docs d ON d.id = f.rowid
         WHERE docs_fts MATCH ? AND ${where.join(' AND ')} ORDER BY d.email_id DESC LIMIT ?`
        : `SELECT d.email_id, d.received_at FROM docs d WHERE ${where.join(' AND ')} ORDER BY d.email_id DESC LIMIT ?`;
      const args = fullText
        ? [matchExpression(userId, query), ...params, options.limit]
        : [...params, options.limit];
      const rows = this.#db.prepare(sql).all(...args) as unknown as SearchHit[];
      return rows.map((r) => ({ email_id: r.email_id, received_at: r.received_at }));
    });
  }
}
