/**
 * The embedded metadata store's tables and how their rows map to the port's types. Every
 * table's key starts with user_id, the partition key the distributed store uses.
 */
import type { Folder } from '../../core/folders.ts';
import { summaryHeaders, type MessageSummary, type SummaryHeaders } from '../../core/summary.ts';
import type { AttachmentMeta, StoredMessage } from '../../ports.ts';

/**
 * The messages table. A rowid table: its 4 KB rows are appended in rowid order and its
 * indexes hold the rowid, where `WITHOUT ROWID` kept the rows themselves in (user_id, email_id)
 * order (a B-tree of large records, split as it grows; sqlite-metadata-migrate.ts rebuilds
 * such a table).
 */
export function messagesTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
  user_id TEXT NOT NULL,
  email_id TEXT NOT NULL,
  folder_id TEXT NOT NULL,
  thread_id TEXT NOT NULL,
  is_read INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  summary TEXT NOT NULL, -- JSON of core/summary.ts SummaryHeaders; before doc: no overflow pages to skip
  doc TEXT NOT NULL,
  PRIMARY KEY (user_id, email_id)
);`;
}

/**
 * The messages table's indexes, on `table` (a version 1 table's rowid copy has them while it
 * is filled; the version 1 table's own indexes were named messages_folder, _read and _thread).
 * Created after the migration (the store's constructor): never on a version 1 table.
 */
export function messagesIndexes(table: string): string {
  return `
CREATE INDEX IF NOT EXISTS messages_by_folder ON ${table} (user_id, folder_id, email_id);
CREATE INDEX IF NOT EXISTS messages_by_read ON ${table} (user_id, folder_id, is_read, email_id);
CREATE INDEX IF NOT EXISTS messages_by_thread ON ${table} (user_id, thread_id, email_id);
`;
}

/** Everything but the stored summary, which only lists read. */
export const MESSAGE_COLUMNS = 'user_id, email_id, folder_id, thread_id, is_read, received_at, doc';

export const METADATA_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  user_id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  account_type TEXT NOT NULL DEFAULT 'personal'
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS folders (
  user_id TEXT NOT NULL,
  folder_id TEXT NOT NULL,
  name TEXT NOT NULL,
  special_use TEXT,
  PRIMARY KEY (user_id, folder_id)
); -- with a rowid: folders list in creation order
${messagesTable('messages')}
CREATE TABLE IF NOT EXISTS attachments (
  user_id TEXT NOT NULL,
  email_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  blob_key TEXT NOT NULL,
  PRIMARY KEY (user_id, email_id, position)
) WITHOUT ROWID;
-- Copies filed and not yet in search.db, oldest first: a queue, not a user's data (its key is
-- not user_id), kept here so that a copy and its entry are one write. AUTOINCREMENT: a seq is
-- never reused, so a key markIndexed takes back is never another entry's.
CREATE TABLE IF NOT EXISTS index_backlog (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  email_id TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS thread_ids (
  user_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  thread_id TEXT NOT NULL,
  PRIMARY KEY (user_id, message_id)
) WITHOUT ROWID;
`;

/** The columns of a message that are not keys or filters, kept as one JSON document. */
export type MessageDoc = Omit<
  StoredMessage,
  'user_id' | 'email_id' | 'folder_id' | 'thread_id' | 'is_read' | 'received_at' | 'attachments'
>;

export interface MessageRow {
  user_id: string;
  email_id: string;
  folder_id: string;
  thread_id: string;
  is_read: number;
  received_at: number;
  doc: string;
}

/** A message's columns without its document (the list's rows). */
export interface SummaryRow extends Omit<MessageRow, 'doc'> {
  summary: string;
  /** The document of a row whose summary is still '' (see SUMMARY_COLUMNS), else null. */
  unsummarised_doc: string | null;
  has_attachments: number;
}

export interface FolderRow {
  folder_id: string;
  name: string;
  special_use: string | null;
}

export function toFolder(userId: string, row: FolderRow): Folder {
  return {
    id: row.folder_id,
    name: row.name,
    user_id: userId,
    ...(row.special_use === null ? {} : { special_use: row.special_use }),
  };
}

/** The columns a message and its summary share: who has it, where, and whether it was read. */
function placeOf(row: Omit<MessageRow, 'doc'>) {
  return {
    user_id: row.user_id,
    email_id: row.email_id,
    folder_id: row.folder_id,
    thread_id: row.thread_id,
    is_read: row.is_read === 1,
    received_at: row.received_at,
  };
}

export function toMessage(row: MessageRow, attachments: readonly AttachmentMeta[]): StoredMessage {
  const doc = JSON.parse(row.doc) as MessageDoc;
  return {
    ...doc,
    ...placeOf(row),
    attachments: attachments.map((a) => ({ ...a })),
  };
}

export function toSummary(row: SummaryRow): MessageSummary {
  const headers =
    row.unsummarised_doc === null
      ? (JSON.parse(row.summary) as SummaryHeaders)
      : summaryHeaders(JSON.parse(row.unsummarised_doc) as MessageDoc);
  return {
    ...headers,
    ...placeOf(row),
    has_attachments: row.has_attachments === 1,
  };
}
