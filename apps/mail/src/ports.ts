/**
 * The mail service's ports: what the roles need from infrastructure, whatever the backend.
 * Embedded mode implements them over node:sqlite, files and an in-process emitter
 * (adapters/embedded); distributed mode over JetStream, Cassandra, MinIO, Elasticsearch and
 * NATS (later adapters), with the cores and roles unchanged.
 */
import type { Readable } from 'node:stream';
import type { Address } from './core/address.ts';
import type { AccountType } from './core/account.ts';
import type { Folder } from './core/folders.ts';
import type { AuthResults, PushEvent, SearchDocument, Topic } from './core/events.ts';
import type { SearchQuery } from './core/search-query.ts';
import type { MessageSummary } from './core/summary.ts';
import type { ThreadHeaders } from './core/threading.ts';

export interface Job<T> {
  readonly id: string;
  readonly payload: T;
  /** Failed attempts so far (0 on first delivery). */
  readonly attempts: number;
  readonly enqueuedAt: number;
}

export interface QueueStats {
  readonly size: number;
  /** Age of the oldest job (ms), 0 when empty. */
  readonly oldestAgeMs: number;
}

/**
 * A durable work queue per topic, at least once: a claimed job is leased to one consumer and
 * comes back when the lease runs out (the consumer crashed) unless it is acked or retried.
 * Ids are natural ids: enqueueing an id that is already queued changes nothing.
 */
export interface Queue {
  enqueue(topic: Topic, id: string, payload: unknown, options?: { notBefore?: number }): Promise<void>;
  claim<T>(topic: Topic, options: { limit: number; leaseMs: number }): Promise<Job<T>[]>;
  ack(topic: Topic, id: string): Promise<void>;
  /** Gives the job back for another attempt at `notBefore`, counting one more failed attempt. */
  retry(topic: Topic, id: string, notBefore: number): Promise<void>;
  stats(topic: Topic): Promise<QueueStats>;
  /** Calls `listener` when a job may be ready on `topic` (a hint; consumers also poll). */
  onReady(topic: Topic, listener: () => void): () => void;
}

export interface AttachmentMeta {
  readonly filename: string;
  readonly content_type: string;
  readonly size: number;
  readonly blob_key: string;
}

/** A message as stored in one user's partition. */
export interface StoredMessage {
  readonly user_id: string;
  readonly email_id: string;
  readonly folder_id: string;
  readonly thread_id: string;
  readonly message_id: string;
  readonly in_reply_to?: string;
  readonly references: readonly string[];
  readonly from: Address;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  /** Only on the sender's own copy. */
  readonly bcc: readonly Address[];
  readonly subject: string;
  readonly body: string;
  readonly html?: string;
  readonly is_read: boolean;
  readonly received_at: number;
  readonly attachments: readonly AttachmentMeta[];
  readonly auth?: AuthResults;
  readonly spam_score?: number;
}

export interface MessagePage {
  readonly messages: readonly StoredMessage[];
  /** email_id to pass as `before` for the next page; undefined on the last page. */
  readonly next?: string;
}

export interface SummaryPage {
  readonly summaries: readonly MessageSummary[];
  /** email_id to pass as `before` for the next page; undefined on the last page. */
  readonly next?: string;
}

/** A copy to file whose thread the store resolves (core/threading.ts) from its headers. */
export interface NewCopy {
  readonly message: Omit<StoredMessage, 'thread_id'>;
  readonly headers: ThreadHeaders;
}

/** A filed copy not yet in the search index. */
export interface UnindexedCopy {
  /** Its entry's key in the backlog, as the store makes it: what `markIndexed` takes back. */
  readonly entry: string;
  readonly user_id: string;
  readonly email_id: string;
  /** false: deleted since it was filed. */
  readonly present: boolean;
}

export interface FiledCopy {
  readonly threadId: string;
  /** false: the user already had this email_id (a redelivered job), left as it was. */
  readonly inserted: boolean;
}

export interface MessagePatch {
  readonly is_read?: boolean;
  readonly folder_id?: string;
}

/** Folders, messages and threads, every row in its user's partition (key user_id). */
export interface MetadataStore {
  /** Creates the mailbox with its default folders; true when it did not exist. */
  ensureUser(userId: string): Promise<boolean>;
  hasUser(userId: string): Promise<boolean>;
  /** undefined when the user has no mailbox. */
  accountType(userId: string): Promise<AccountType | undefined>;
  setAccountType(userId: string, type: AccountType): Promise<void>;
  folders(userId: string): Promise<Folder[]>;
  folder(userId: string, folderId: string): Promise<Folder | undefined>;
  createFolder(folder: Folder): Promise<void>;
  renameFolder(userId: string, folderId: string, name: string): Promise<void>;
  /** Deletes a custom folder; its messages move to Trash. */
  deleteFolder(userId: string, folderId: string): Promise<void>;
  /** Stores a message; an email_id already stored for the user is left as it is (false). */
  insertMessage(message: StoredMessage): Promise<boolean>;
  /**
   * Files copies in order, as one write: each joins the thread of the nearest id its headers name
   * that its user already has (copies earlier in the list included), else a new thread (its
   * email_id), records those ids for the thread, and is inserted as `insertMessage` does. Each
   * copy, inserted or already there (a job filed again, perhaps by an older version that kept no
   * backlog), is recorded in the same write as not yet indexed (`unindexed`): the indexer adds it
   * to the search index later, in larger batches (one already there is left), and a crash in
   * between loses nothing.
   */
  fileCopies(copies: readonly NewCopy[]): Promise<FiledCopy[]>;
  /** The oldest `limit` copies filed and not yet marked indexed. */
  unindexed(limit: number): Promise<UnindexedCopy[]>;
  /**
   * Takes the entries given (`UnindexedCopy.entry`, as `unindexed` read them) off the backlog once
   * their index write is committed; entries added since stay. No order of the keys is needed.
   */
  markIndexed(entries: readonly string[]): Promise<void>;
  message(userId: string, emailId: string): Promise<StoredMessage | undefined>;
  /**
   * The same read, synchronously, for a fast answer (the kit's fast-routes.ts): a backend that
   * cannot read synchronously always answers undefined, and the caller takes `message`.
   */
  messageNow(userId: string, emailId: string): StoredMessage | undefined;
  /** Newest first, ids strictly below `before`. */
  listMessages(
    userId: string,
    folderId: string,
    options: { limit: number; before?: string; isRead?: boolean },
  ): Promise<MessagePage>;
  /** What listMessages finds, as the list shows it (core/summary.ts): no bodies read. */
  listSummaries(
    userId: string,
    folderId: string,
    options: { limit: number; before?: string; isRead?: boolean },
  ): Promise<SummaryPage>;
  updateMessage(userId: string, emailId: string, patch: MessagePatch): Promise<StoredMessage | undefined>;
  deleteMessage(userId: string, emailId: string): Promise<boolean>;
  /** Thread ids of the given Message-Ids the user already has. */
  threadsOf(userId: string, messageIds: readonly string[]): Promise<Map<string, string>>;
  /** Records message ids as belonging to a thread (ids already recorded keep their thread). */
  linkThread(userId: string, threadId: string, messageIds: readonly string[]): Promise<void>;
  thread(userId: string, threadId: string): Promise<StoredMessage[]>;
}

/** Attachment contents and raw messages, by key. */
export interface BlobStore {
  put(key: string, data: Buffer | Readable): Promise<number>;
  get(key: string): Promise<Readable | undefined>;
  read(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
}

export interface SearchHit {
  readonly email_id: string;
  readonly received_at: number;
}

/**
 * Full-text search over each user's own mail: the indexer adds new copies from the metadata
 * store's backlog (`MetadataStore.unindexed`) and applies change events.
 */
export interface SearchIndex {
  upsert(doc: SearchDocument): Promise<void>;
  /**
   * Adds the documents not indexed yet, in one write; one already there is left as it is (a
   * change made since the copy was filed may have been upserted already: it must not be undone).
   */
  addNew(docs: readonly SearchDocument[]): Promise<void>;
  remove(userId: string, emailId: string): Promise<void>;
  /** Newest first; `before` is an email_id cursor. */
  search(
    userId: string,
    query: SearchQuery,
    options: { limit: number; before?: string },
  ): Promise<SearchHit[]>;
}

export interface PushRecord {
  readonly seq: number;
  readonly at: number;
  readonly event: PushEvent;
}

/** Tells online users what changed; keeps a backlog for clients that poll after being offline. */
export interface Push {
  publish(userId: string, event: PushEvent): Promise<void>;
  /** Several users' events in one write, all or none (a worker's batch); else one publish each. */
  publishAll?(events: readonly PushedEvent[]): Promise<void>;
  subscribe(userId: string, listener: (record: PushRecord) => void): () => void;
  /** A record another connection of this process committed (the consumer thread's), to subscribers. */
  announce?(userId: string, record: PushRecord): void;
  /** The seq of the user's newest event (0 when none): where a live-only feed starts. */
  latest(userId: string): Promise<number>;
  /** Records after `since`; waits up to `waitMs` for one when there are none yet. */
  poll(
    userId: string,
    since: number,
    options: { waitMs: number; limit: number; signal?: AbortSignal },
  ): Promise<PushRecord[]>;
}

/** An event for `publishAll`: whose, and what. */
export interface PushedEvent {
  readonly userId: string;
  readonly event: PushEvent;
}

/** Everything the roles of one mail deployment share. */
export interface MailPorts {
  readonly queue: Queue;
  readonly metadata: MetadataStore;
  readonly blobs: BlobStore;
  readonly search: SearchIndex;
  readonly push: Push;
  close(): Promise<void>;
}
