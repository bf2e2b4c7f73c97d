/**
 * The embedded metadata store. Every table's key starts with user_id, the partition key the
 * distributed store uses, and every query names one user: nothing here reads across mailboxes.
 * The spec's separate read/unread table is the index messages_by_read (same effect in SQLite).
 * Filing writes (insertMessage, linkThread, fileCopies) go through a group commit: those of
 * one event-loop turn share a transaction. fileCopies also records each copy filed in
 * index_backlog (sqlite-index-backlog.ts), the indexer's durable to-do list.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { transaction } from '@tessera/kit/sqlite';
import type { AccountType } from '../../core/account.ts';
import { FOLDER, defaultFolders, type Folder } from '../../core/folders.ts';
import { summaryHeaders } from '../../core/summary.ts';
import { resolveThread, threadKeys } from '../../core/threading.ts';
import {
  MESSAGE_COLUMNS,
  METADATA_SCHEMA,
  messagesIndexes,
  toFolder,
  toMessage,
  type FolderRow,
  type MessageRow,
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
import { IndexBacklog } from './sqlite-index-backlog.ts';
import { MetadataLists, type ListOptions } from './sqlite-metadata-lists.ts';
import { ThreadIds } from './sqlite-thread-ids.ts';
import { migrateMetadata } from './sqlite-metadata-migrate.ts';
import { settle } from './settle.ts';

export class SqliteMetadataStore implements MetadataStore {
  readonly #db: DatabaseSync;
  readonly #group: GroupWrites;
  readonly #backlog: IndexBacklog;
  readonly #lists: MetadataLists;
  readonly #threads: ThreadIds;
  readonly #now: () => number;
  readonly #s: Record<string, StatementSync>;

  constructor(db: DatabaseSync, now: () => number = Date.now, group: GroupWritesOptions = {}) {
    this.#db = db;
    this.#group = new GroupWrites(db, group);
    this.#now = now;
    db.exec(METADATA_SCHEMA);
    migrateMetadata(db);
    db.exec(messagesIndexes('messages'));
    this.#backlog = new IndexBacklog(db);
    this.#lists = new MetadataLists(db, (row) => this.#toMessage(row));
    this.#threads = new ThreadIds(db);
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
      update: p('UPDATE messages SET is_read = ?, folder_id = ? WHERE user_id = ? AND email_id = ?'),
      deleteMessage: p('DELETE FROM messages WHERE user_id = ? AND email_id = ?'),
      deleteAttachments: p('DELETE FROM attachments WHERE user_id = ? AND email_id = ?'),
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
    return settle(() => this.#stmt('hasUser').get(userId) !== undefined);
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
        const threadId = resolveThread(headers, this.#threads.of(message.user_id, keys), message.email_id);
        this.#threads.link(message.user_id, threadId, keys);
        const inserted = this.#insert({ ...message, thread_id: threadId });
        // Filed again too: see sqlite-index-backlog.ts.
        this.#backlog.add(message.user_id, message.email_id);
        return { threadId, inserted };
      }),
    );
  }

  unindexed(limit: number): Promise<UnindexedCopy[]> {
    return settle(() => this.#backlog.read(limit));
  }

  markIndexed(entries: readonly string[]): Promise<void> {
    return this.#group.run(() => this.#backlog.remove(entries));
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
    return settle(() => this.#lists.messages(userId, folderId, options));
  }

  listSummaries(userId: string, folderId: string, options: ListOptions): Promise<SummaryPage> {
    return settle(() => this.#lists.summaries(userId, folderId, options));
  }

  updateMessage(userId: string, emailId: string, patch: MessagePatch): Promise<StoredMessage | undefined> {
    return settle(() =>
      transaction(this.#db, () => {
        const row = this.#stmt('message').get(userId, emailId) as MessageRow | undefined;
        if (row === undefined) return undefined;
        const isRead = patch.is_read === undefined ? row.is_read : patch.is_read ? 1 : 0;
        const folderId = patch.folder_id ?? row.folder_id;
        this.#stmt('update').run(isRead, folderId, userId, emailId);
        return this.#toMessage({ ...row, is_read: isRead, folder_id: folderId });
      }),
    );
  }

  deleteMessage(userId: string, emailId: string): Promise<boolean> {
    return settle(() =>
      transaction(this.#db, () => {
        this.#stmt('deleteAttachments').run(userId, emailId);
        return this.#stmt('deleteMessage').run(userId, emailId).changes > 0;
      }),
    );
  }

  threadsOf(userId: string, messageIds: readonly string[]): Promise<Map<string, string>> {
    return settle(() => this.#threads.of(userId, messageIds));
  }

  linkThread(userId: string, threadId: string, messageIds: readonly string[]): Promise<void> {
    return this.#group.run(() => this.#threads.link(userId, threadId, messageIds));
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
