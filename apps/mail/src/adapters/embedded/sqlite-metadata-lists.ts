/**
 * The metadata store's lists: a user's messages of a folder (or of every folder but junk and
 * trash), newest first, a page at a time below an email_id cursor, whole or as summaries.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { FOLDER, isVirtualFolder } from '../../core/folders.ts';
import type { MessagePage, StoredMessage, SummaryPage } from '../../ports.ts';
import { MESSAGE_COLUMNS, toSummary, type MessageRow, type SummaryRow } from './sqlite-metadata-rows.ts';

const MAX_ID = 'g'; // sorts after every hex UUID: "no cursor" in a `<` comparison

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

export interface ListOptions {
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

type Kind = 'list' | 'summaries';
type Statements = Record<`${Kind}${'All' | 'Folder'}${'' | 'Read'}`, StatementSync>;

export class MetadataLists {
  readonly #s: Statements;
  readonly #toMessage: (row: MessageRow) => StoredMessage;

  /** `toMessage`: a row with its attachments (the store reads them). */
  constructor(db: DatabaseSync, toMessage: (row: MessageRow) => StoredMessage) {
    this.#toMessage = toMessage;
    const p = (sql: string): StatementSync => db.prepare(sql);
    this.#s = {
      listFolder: p(list(MESSAGE_COLUMNS, 'folder_id = ?')),
      listFolderRead: p(list(MESSAGE_COLUMNS, 'folder_id = ? AND is_read = ?')),
      listAll: p(list(MESSAGE_COLUMNS, NOT_JUNK_OR_TRASH)),
      listAllRead: p(list(MESSAGE_COLUMNS, `${NOT_JUNK_OR_TRASH} AND is_read = ?`)),
      summariesFolder: p(list(SUMMARY_COLUMNS, 'folder_id = ?')),
      summariesFolderRead: p(list(SUMMARY_COLUMNS, 'folder_id = ? AND is_read = ?')),
      summariesAll: p(list(SUMMARY_COLUMNS, NOT_JUNK_OR_TRASH)),
      summariesAllRead: p(list(SUMMARY_COLUMNS, `${NOT_JUNK_OR_TRASH} AND is_read = ?`)),
    };
  }

  messages(userId: string, folderId: string, options: ListOptions): MessagePage {
    const rows = this.#list('list', userId, folderId, options) as unknown as MessageRow[];
    const { page, next } = pageOf(rows, options.limit);
    const messages = page.map((row) => this.#toMessage(row));
    return next === undefined ? { messages } : { messages, next };
  }

  summaries(userId: string, folderId: string, options: ListOptions): SummaryPage {
    const rows = this.#list('summaries', userId, folderId, options) as unknown as SummaryRow[];
    const { page, next } = pageOf(rows, options.limit);
    const summaries = page.map(toSummary);
    return next === undefined ? { summaries } : { summaries, next };
  }

  /** One more row than asked: it tells whether there is a next page. */
  #list(kind: Kind, userId: string, folderId: string, options: ListOptions): unknown[] {
    const before = options.before ?? MAX_ID;
    const n = options.limit + 1;
    const all = isVirtualFolder(folderId);
    const name = `${kind}${all ? 'All' : 'Folder'}${options.isRead === undefined ? '' : 'Read'}` as const;
    const filter = [
      ...(all ? [] : [folderId]),
      ...(options.isRead === undefined ? [] : [options.isRead ? 1 : 0]),
    ];
    return this.#s[name].all(userId, ...filter, before, n);
  }
}
