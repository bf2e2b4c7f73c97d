/**
 * The embedded metadata store. Every table's key starts with user_id, the partition key the
 * distributed store uses, and every query names one user: nothing here reads across mailboxes.
 * The spec's separate read/unread table is the index messages_by_read (same effect in SQLite).
 * Filing writes (insertMessage, linkThread, fileCopies) go through a group commit: those of
 * one event-loop turn share a transaction. fileCopies also records each new copy in
 * index_backlog, the indexer's durable to-do list (the one table not keyed by user_id).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
import type { AccountType } from '../../core/account.ts';
import { FOLDER, defaultFolders, isVirtualFolder, type Folder } from '../../core/folders.ts';
import { summaryHeaders } from '../../core/summary.ts';
import { resolveThread, threadKeys } from '../../core/threading.ts';
import {
  METADATA_SCHEMA,
  messagesIndexes,
  toFolder,
  toMessage,
  toSummary,
  type FolderRow,
  type MessageRow,
  type SummaryRow,
} from './sqlite-metadata-rows.ts';
import type {
  AttachmentMeta,
  FiledCopy,
  MessagePage,
  MessagePatch,
  MetadataStore,
  NewCopy,
  StoredMessage,
  SummaryPage,
  UnindexedCopy,
} from '../../ports.ts';
import { GroupWrites, type GroupWritesOptions } from './group-writes.ts';
import { migrateMetadata } from './sqlite-metadata-migrate.ts';
import { settle } from './settle.ts';

const MAX_ID = 'g'; // sorts after every hex UUID: "no cursor" in a `<` comparison

/** Everything but the stored summary, which only lists read. */
const MESSAGE_COLUMNS = 'user_id, email_id, folder_id, thread_id, is_read, received_at, doc';
/**
 * A list's columns: no document (unless the row has no summary: one written by a process of the
 * version before, beside this one), and whether there are attachments from their primary key.
 */
const SUMMARY_COLUMNS = `user_id, email_id, folder_id, thread_id, is_read, received_at, summary,
  CASE WHEN summary = '' THEN doc END AS unsummarised_doc,
  EXISTS (SELECT 1 FROM attachments a WHERE a.user_id = messages.user_id AND a.email_id = messages.email_id) AS has_attachments`;
const NOT_JUNK_OR_TRASH = `folder_id NOT IN ('${FOLDER.junk}', '${FOLDER.trash}')`;

/** A user's messages matching `filter`, newest first, below a cursor id: (…filter, before, limit). */
const list = (columns: string, filter: string): string =>
  `SELECT ${columns} FROM messages WHERE user_id = ? AND ${filter} AND email_id < ? ORDER BY email_id DESC LIMIT ?`;

interface ListOptions {
  readonly limit: number;
  readonly before?: string;
  readonly isRead?: boolean;
}

/** The first `limit` rows, and the cursor of the next page when there was one row more. */
function pageOf<R extends { email_id: string }>(
  rows: readonly R[],
  limit: number,
): { page: R[]; next?: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return rows.length > limit && last !== undefined ? { page, next: last.email_id } : { page };
}

export class SqliteMetadataStore implements MetadataStore {
  readonly #db: DatabaseSync;
  readonly #group: GroupWrites;
  readonly #now: () => number;
  readonly #s: Record<string, StatementSync>;

  constructor(db: DatabaseSync, now: () => number = Date.now, group: GroupWritesOptions = {}) {
    this.#db = db;
    this.#group = new GroupWrites(db, group);
    this.#now = now;
    db.exec(METADATA_SCHEMA);
    migrateMetadata(db);
    db.exec(messagesIndexes('messages'));
    const p = (sql: string): StatementSync => db.prepare(sql);
    this.#s = {
      insertUser: p('INSERT OR IGNORE INTO users (user_id, created_at) VALUES (?, ?)'),
      hasUser: p('SELECT 1 AS x FROM users WHERE user_id = ?'),
      accountType: p('SELECT account_type FROM users WHERE user_id = ?'),
      setAccountType: p('UPDATE users SET account_type = ? WHERE user_id = ?'),
      insertFolder: p(
        'INSERT OR IGNORE INTO folders (user_id, folder_id, name, special_use) VALUES (?, ?, ?, ?)',
      ),
      folders: p('SELECT folder_id, name, special_use FROM folders WHERE user_id = ? ORDER BY rowid'),
      folder: p('SELECT folder_id, name, special_use FROM folders WHERE user_id = ? AND folder_id = ?'),
      renameFolder: p('UPDATE folders SET name = ? WHERE user_id = ? AND folder_id = ?'),
      deleteFolder: p('DELETE FROM folders WHERE user_id = ? AND folder_id = ?'),
      moveFolderToTrash: p(
        `UPDATE messages SET folder_id = '${FOLDER.trash}' WHERE user_id = ? AND folder_id = ?`,
      ),
      insertMessage: p(
        'INSERT OR IGNORE INTO messages (user_id, email_id, folder_id, thread_id, is_read, received_at, summary, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertAttachment: p(
        'INSERT INTO attachments (user_id, email_id, position, filename, content_type, size, blob_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      message: p(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE user_id = ? AND email_id = ?`),
      attachments: p(
        'SELECT filename, content_type, size, blob_key FROM attachments WHERE user_id = ? AND email_id = ? ORDER BY position',
      ),
      listFolder: p(list(MESSAGE_COLUMNS, 'folder_id = ?')),
      listFolderRead: p(list(MESSAGE_COLUMNS, 'folder_id = ? AND is_read = ?')),
      listAll: p(list(MESSAGE_COLUMNS, NOT_JUNK_OR_TRASH)),
      listAllRead: p(list(MESSAGE_COLUMNS, `${NOT_JUNK_OR_TRASH} AND is_read = ?`)),
      summariesFolder: p(list(SUMMARY_COLUMNS, 'folder_id = ?')),
      summariesFolderRead: p(list(SUMMARY_COLUMNS, 'folder_id = ? AND is_read = ?')),
      summariesAll: p(list(SUMMARY_COLUMNS, NOT_JUNK_OR_TRASH)),
      summariesAllRead: p(list(SUMMARY_COLUMNS, `${NOT_JUNK_OR_TRASH} AND is_read = ?`)),
      update: p('UPDATE messages SET is_read = ?, folder_id = ? WHERE user_id = ? AND email_id = ?'),
      deleteMessage: p('DELETE FROM messages WHERE user_id = ? AND email_id = ?'),
      deleteAttachments: p('DELETE FROM attachments WHERE user_id = ? AND email_id = ?'),
      addBacklog: p('INSERT INTO index_backlog (user_id, email_id) VALUES (?, ?)'),
      // Whether the copy is still there, from the primary key's index alone (no row read).
      backlog: p(
        `SELECT seq, user_id, email_id,
           EXISTS (SELECT 1 FROM messages m WHERE m.user_id = b.user_id AND m.email_id = b.email_id) AS present
         FROM index_backlog b ORDER BY seq LIMIT ?`,
      ),
      trimBacklog: p('DELETE FROM index_backlog WHERE seq <= ?'),
      threadOf: p('SELECT thread_id FROM thread_ids WHERE user_id = ? AND message_id = ?'),
      linkThread: p('INSERT OR IGNORE INTO thread_ids (user_id, message_id, thread_id) VALUES (?, ?, ?)'),
      thread: p(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE user_id = ? AND thread_id = ? ORDER BY email_id`,
      ),
    };
  }

  /** Stops taking writes; resolves once those submitted are committed (before the connection closes). */
  closeWrites(): Promise<void> {
    return this.#group.close();
  }

  #stmt(name: string): StatementSync {
    const stmt = this.#s[name];
    if (stmt === undefined) throw new Error(`no statement ${name}`);
    return stmt;
  }

  ensureUser(userId: string): Promise<boolean> {
    return settle(() => {
      // Every list asks: a read answers the usual case without taking the write lock.
      if (this.#stmt('hasUser').get(userId) !== undefined) return false;
      return transaction(this.#db, () => {
        const created = this.#stmt('insertUser').run(userId, this.#now()).changes > 0;
        if (created) {
          for (const f of defaultFolders(userId))
            this.#stmt('insertFolder').run(userId, f.id, f.name, f.special_use ?? null);
        }
        return created;
      });
    });
  }

  hasUser(userId: string): Promise<boolean> {
    return settle(() => {
      return this.#stmt('hasUser').get(userId) !== undefined;
    });
  }

  accountType(userId: string): Promise<AccountType | undefined> {
    return settle(() => {
      const row = this.#stmt('accountType').get(userId) as { account_type: AccountType } | undefined;
      return row?.account_type;
    });
  }

  setAccountType(userId: string, type: AccountType): Promise<void> {
    return settle(() => {
      this.#stmt('setAccountType').run(type, userId);
    });
  }

  folders(userId: string): Promise<Folder[]> {
    return settle(() => {
      const rows = this.#stmt('folders').all(userId) as unknown as FolderRow[];
      return rows.map((row) => toFolder(userId, row));
    });
  }

  folder(userId: string, folderId: string): Promise<Folder | undefined> {
    return settle(() => {
      const row = this.#stmt('folder').get(userId, folderId) as FolderRow | undefined;
      return row === undefined ? undefined : toFolder(userId, row);
    });
  }

  createFolder(folder: Folder): Promise<void> {
    return settle(() => {
      this.#stmt('insertFolder').run(folder.user_id, folder.id, folder.name, folder.special_use ?? null);
    });
  }

  renameFolder(userId: string, folderId: string, name: string): Promise<void> {
    return settle(() => {
      this.#stmt('renameFolder').run(name, userId, folderId);
    });
  }

  deleteFolder(userId: string, folderId: string): Promise<void> {
    return settle(() => {
      transaction(this.#db, () => {
        this.#stmt('moveFolderToTrash').run(userId, folderId);
        this.#stmt('deleteFolder').run(userId, folderId);
      });
    });
  }

  insertMessage(m: StoredMessage): Promise<boolean> {
    return this.#group.run(() => this.#insert(m));
  }

  // The group commit makes each of its writes atomic: these need no transaction of their own.
  fileCopies(copies: readonly NewCopy[]): Promise<FiledCopy[]> {
    return this.#group.run(() =>
      copies.map(({ message, headers }) => {
        const keys = threadKeys(headers);
        const threadId = resolveThread(headers, this.#threadsOf(message.user_id, keys), message.email_id);
        this.#linkThread(message.user_id, threadId, keys);
        const inserted = this.#insert({ ...message, thread_id: threadId });
        if (inserted) this.#stmt('addBacklog').run(message.user_id, message.email_id);
        return { threadId, inserted };
      }),
    );
  }

  unindexed(limit: number): Promise<UnindexedCopy[]> {
    return settle(() => {
      const rows = this.#stmt('backlog').all(limit) as unknown as (Omit<UnindexedCopy, 'present'> & {
        present: number;
      })[];
      return rows.map((row) => ({ ...row, present: row.present === 1 }));
    });
  }

  markIndexed(seq: number): Promise<void> {
    return this.#group.run(() => {
      this.#stmt('trimBacklog').run(seq);
    });
  }

  #insert(m: StoredMessage): boolean {
    const { user_id, email_id, folder_id, thread_id, is_read, received_at, attachments, ...doc } = m;
    const row = [
      user_id,
      email_id,
      folder_id,
      thread_id,
      is_read ? 1 : 0,
      received_at,
      JSON.stringify(summaryHeaders(doc)),
      JSON.stringify(doc),
    ];
    const inserted = this.#stmt('insertMessage').run(...row).changes > 0;
    if (inserted) {
      attachments.forEach((a, i) =>
        this.#stmt('insertAttachment').run(
          user_id,
          email_id,
          i,
          a.filename,
          a.content_type,
          a.size,
          a.blob_key,
        ),
      );
    }
    return inserted;
  }

  message(userId: string, emailId: string): Promise<StoredMessage | undefined> {
    return settle(() => this.messageNow(userId, emailId));
  }

  messageNow(userId: string, emailId: string): StoredMessage | undefined {
    const row = this.#stmt('message').get(userId, emailId) as MessageRow | undefined;
    return row === undefined ? undefined : this.#toMessage(row);
  }

  listMessages(userId: string, folderId: string, options: ListOptions): Promise<MessagePage> {
    return settle(() => {
      const rows = this.#list('list', userId, folderId, options) as unknown as MessageRow[];
      const { page, next } = pageOf(rows, options.limit);
      const messages = page.map((row) => this.#toMessage(row));
      return next === undefined ? { messages } : { messages, next };
    });
  }

  listSummaries(userId: string, folderId: string, options: ListOptions): Promise<SummaryPage> {
    return settle(() => {
      const rows = this.#list('summaries', userId, folderId, options) as unknown as SummaryRow[];
      const { page, next } = pageOf(rows, options.limit);
      const summaries = page.map(toSummary);
      return next === undefined ? { summaries } : { summaries, next };
    });
  }

  /** One more row than asked: it tells whether there is a next page. */
  #list(kind: 'list' | 'summaries', userId: string, folderId: string, options: ListOptions): unknown[] {
    const before = options.before ?? MAX_ID;
    const n = options.limit + 1;
    const all = isVirtualFolder(folderId);
    const name = `${kind}${all ? 'All' : 'Folder'}${options.isRead === undefined ? '' : 'Read'}`;
    const filter = [
      ...(all ? [] : [folderId]),
      ...(options.isRead === undefined ? [] : [options.isRead ? 1 : 0]),
    ];
    return this.#stmt(name).all(userId, ...filter, before, n);
  }

  updateMessage(userId: string, emailId: string, patch: MessagePatch): Promise<StoredMessage | undefined> {
    return settle(() => {
      return transaction(this.#db, () => {
        const row = this.#stmt('message').get(userId, emailId) as MessageRow | undefined;
        if (row === undefined) return undefined;
        const isRead = patch.is_read === undefined ? row.is_read : patch.is_read ? 1 : 0;
        const folderId = patch.folder_id ?? row.folder_id;
        this.#stmt('update').run(isRead, folderId, userId, emailId);
        return this.#toMessage({ ...row, is_read: isRead, folder_id: folderId });
      });
    });
  }

  deleteMessage(userId: string, emailId: string): Promise<boolean> {
    return settle(() => {
      return transaction(this.#db, () => {
        this.#stmt('deleteAttachments').run(userId, emailId);
        return this.#stmt('deleteMessage').run(userId, emailId).changes > 0;
      });
    });
  }

  threadsOf(userId: string, messageIds: readonly string[]): Promise<Map<string, string>> {
    return settle(() => this.#threadsOf(userId, messageIds));
  }

  #threadsOf(userId: string, messageIds: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    for (const id of messageIds) {
      const row = this.#stmt('threadOf').get(userId, id) as { thread_id: string } | undefined;
      if (row !== undefined) found.set(id, row.thread_id);
    }
    return found;
  }

  linkThread(userId: string, threadId: string, messageIds: readonly string[]): Promise<void> {
    return this.#group.run(() => this.#linkThread(userId, threadId, messageIds));
  }

  #linkThread(userId: string, threadId: string, messageIds: readonly string[]): void {
    for (const id of messageIds) this.#stmt('linkThread').run(userId, id, threadId);
  }

  thread(userId: string, threadId: string): Promise<StoredMessage[]> {
    return settle(() => {
      const rows = this.#stmt('thread').all(userId, threadId) as unknown as MessageRow[];
      return rows.map((row) => this.#toMessage(row));
    });
  }

  #toMessage(row: MessageRow): StoredMessage {
    const attachments = this.#stmt('attachments').all(
      row.user_id,
      row.email_id,
    ) as unknown as AttachmentMeta[];
    return toMessage(row, attachments);
  }
}
