/**
 * The mail service as its API sees it: one user's mailbox operations. Every method takes the
 * caller's user id first and reads only that user's partition, so no route can reach
 * another user's mail.
 */
import type { Readable } from 'node:stream';
import { isValidUserId } from './core/address.ts';
import { attachmentLimitFor, type AccountType, type AttachmentLimits } from './core/account.ts';
import { newEmailId, isEmailId } from './core/email-id.ts';
import { TOPIC, type ChangeEvent, type PushEvent } from './core/events.ts';
import {
  FOLDER,
  assertMutableFolder,
  isVirtualFolder,
  validateFolderName,
  type Folder,
} from './core/folders.ts';
import { DEFAULT_MAX_RECIPIENTS } from './core/message.ts';
import { parseSearchQuery } from './core/search-query.ts';
import { mailErrors } from './errors.ts';
import type { MailPorts, MessagePage, PushRecord, StoredMessage, SummaryPage } from './ports.ts';
import { openPushFeed, type PushFeed, type PushFeedOptions } from './push-feed.ts';
import { draftOf, sendMessage, type SendInput } from './send-message.ts';

export type { SendInput } from './send-message.ts';

export interface ListOptions {
  readonly limit: number;
  /** next_cursor of the previous page. */
  readonly cursor?: string;
  readonly isRead?: boolean;
}

export interface MailServiceOptions {
  readonly ports: MailPorts;
  readonly domains: readonly string[];
  readonly maxMessageBytes: number;
  readonly attachmentLimits: AttachmentLimits;
  readonly now?: () => number;
}

export class MailService {
  readonly #ports: MailPorts;
  readonly #domains: readonly string[];
  readonly #maxMessageBytes: number;
  readonly #attachmentLimits: AttachmentLimits;
  readonly #now: () => number;

  constructor(options: MailServiceOptions) {
    this.#ports = options.ports;
    this.#domains = options.domains;
    this.#maxMessageBytes = options.maxMessageBytes;
    this.#attachmentLimits = options.attachmentLimits;
    this.#now = options.now ?? Date.now;
  }

  /** Creates the user's mailbox with its folders (idempotent); called on each first use. */
  async ensureMailbox(userId: string): Promise<void> {
    if (!isValidUserId(userId)) throw mailErrors.MAIL_INVALID_ADDRESS(`"${userId}" cannot be a mailbox name`);
    await this.#ports.metadata.ensureUser(userId);
  }

  /** Business accounts get the larger attachment limit (MAIL_BUSINESS_ATTACHMENT_LIMIT_BYTES). */
  async setAccountType(userId: string, type: AccountType): Promise<void> {
    await this.ensureMailbox(userId);
    await this.#ports.metadata.setAccountType(userId, type);
  }

  async folders(userId: string): Promise<Folder[]> {
    await this.ensureMailbox(userId);
    return this.#ports.metadata.folders(userId);
  }

  async createFolder(userId: string, name: string): Promise<Folder> {
    const existing = await this.folders(userId);
    const folder: Folder = {
      id: newEmailId(),
      name: validateFolderName(
        name,
        existing.map((f) => f.name),
      ),
      user_id: userId,
    };
    await this.#ports.metadata.createFolder(folder);
    return folder;
  }

  async renameFolder(userId: string, folderId: string, name: string): Promise<Folder> {
    assertMutableFolder(folderId);
    const folders = await this.folders(userId);
    const folder = folders.find((f) => f.id === folderId);
    if (folder === undefined) throw mailErrors.MAIL_FOLDER_NOT_FOUND(`no folder ${folderId}`);
    const others = folders.filter((f) => f.id !== folderId).map((f) => f.name);
    const renamed = validateFolderName(name, others);
    await this.#ports.metadata.renameFolder(userId, folderId, renamed);
    return { ...folder, name: renamed };
  }

  async deleteFolder(userId: string, folderId: string): Promise<void> {
    assertMutableFolder(folderId);
    await this.#folder(userId, folderId);
    await this.#ports.metadata.deleteFolder(userId, folderId);
  }

  async #folder(userId: string, folderId: string): Promise<Folder> {
    await this.ensureMailbox(userId);
    const folder = await this.#ports.metadata.folder(userId, folderId);
    if (folder === undefined) throw mailErrors.MAIL_FOLDER_NOT_FOUND(`no folder ${folderId}`);
    return folder;
  }

  async listMessages(userId: string, folderId: string, options: ListOptions): Promise<MessagePage> {
    return this.#ports.metadata.listMessages(
      userId,
      folderId,
      await this.#listing(userId, folderId, options),
    );
  }

  /** What listMessages finds, as a list shows it (core/summary.ts), without reading any body. */
  async listSummaries(userId: string, folderId: string, options: ListOptions): Promise<SummaryPage> {
    return this.#ports.metadata.listSummaries(
      userId,
      folderId,
      await this.#listing(userId, folderId, options),
    );
  }

  async #listing(
    userId: string,
    folderId: string,
    options: ListOptions,
  ): Promise<{ limit: number; before?: string; isRead?: boolean }> {
    await this.#folder(userId, folderId);
    if (options.cursor !== undefined && !isEmailId(options.cursor))
      throw mailErrors.MAIL_BAD_CURSOR('the cursor is not valid');
    return {
      limit: options.limit,
      ...(options.cursor === undefined ? {} : { before: options.cursor }),
      ...(options.isRead === undefined ? {} : { isRead: options.isRead }),
    };
  }

  async message(userId: string, emailId: string): Promise<StoredMessage> {
    const message = isEmailId(emailId) ? await this.#ports.metadata.message(userId, emailId) : undefined;
    if (message === undefined) throw mailErrors.MAIL_MESSAGE_NOT_FOUND(`no message ${emailId}`);
    return message;
  }

  /**
   * The message when the store can read it synchronously and has it; undefined otherwise (the
   * caller then takes the asynchronous path, which answers the failures).
   */
  messageNow(userId: string, emailId: string): StoredMessage | undefined {
    return isEmailId(emailId) ? this.#ports.metadata.messageNow(userId, emailId) : undefined;
  }

  async attachment(
    userId: string,
    emailId: string,
    filename: string,
  ): Promise<{ contentType: string; size: number; stream: Readable }> {
    const message = await this.message(userId, emailId);
    const meta = message.attachments.find((a) => a.filename === filename);
    const stream = meta === undefined ? undefined : await this.#ports.blobs.get(meta.blob_key);
    if (meta === undefined || stream === undefined) {
      throw mailErrors.MAIL_ATTACHMENT_NOT_FOUND(
        `message ${emailId} has no attachment ${JSON.stringify(filename)}`,
      );
    }
    return { contentType: meta.content_type, size: meta.size, stream };
  }

  async updateMessage(
    userId: string,
    emailId: string,
    patch: { is_read?: boolean; folder_id?: string },
  ): Promise<StoredMessage> {
    await this.message(userId, emailId);
    if (patch.folder_id !== undefined) {
      await this.#folder(userId, patch.folder_id);
      if (isVirtualFolder(patch.folder_id))
        throw mailErrors.MAIL_SPECIAL_FOLDER('nothing can be moved into All');
    }
    const updated = await this.#ports.metadata.updateMessage(userId, emailId, patch);
    if (updated === undefined) throw mailErrors.MAIL_MESSAGE_NOT_FOUND(`no message ${emailId}`);
    await this.#changed(userId, emailId, {
      type: 'message.updated',
      email_id: emailId,
      folder_id: updated.folder_id,
    });
    return updated;
  }

  /** The first delete moves the message to Trash; deleting it from Trash removes it for good. */
  async deleteMessage(userId: string, emailId: string): Promise<{ deleted: boolean }> {
    const message = await this.message(userId, emailId);
    if (message.folder_id !== FOLDER.trash) {
      await this.#ports.metadata.updateMessage(userId, emailId, { folder_id: FOLDER.trash });
      await this.#changed(userId, emailId, {
        type: 'message.updated',
        email_id: emailId,
        folder_id: FOLDER.trash,
      });
      return { deleted: false };
    }
    await this.#ports.metadata.deleteMessage(userId, emailId);
    for (const a of message.attachments) await this.#ports.blobs.delete(a.blob_key);
    await this.#changed(userId, emailId, { type: 'message.deleted', email_id: emailId });
    return { deleted: true };
  }

  async thread(userId: string, threadId: string): Promise<StoredMessage[]> {
    const messages = isEmailId(threadId) ? await this.#ports.metadata.thread(userId, threadId) : [];
    if (messages.length === 0) throw mailErrors.MAIL_THREAD_NOT_FOUND(`no thread ${threadId}`);
    return messages;
  }

  async search(
    userId: string,
    q: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ messages: StoredMessage[]; next?: string }> {
    const query = parseSearchQuery(q);
    if (options.cursor !== undefined && !isEmailId(options.cursor))
      throw mailErrors.MAIL_BAD_CURSOR('the cursor is not valid');
    const hits = await this.#ports.search.search(userId, query, {
      limit: options.limit + 1,
      ...(options.cursor === undefined ? {} : { before: options.cursor }),
    });
    const messages: StoredMessage[] = [];
    // The index lags the store: a hit whose message is gone since is skipped.
    for (const hit of hits.slice(0, options.limit)) {
      const message = await this.#ports.metadata.message(userId, hit.email_id);
      if (message !== undefined) messages.push(message);
    }
    const last = hits[options.limit - 1];
    return hits.length > options.limit && last !== undefined
      ? { messages, next: last.email_id }
      : { messages };
  }

  async poll(
    userId: string,
    since: number,
    options: { waitMs: number; limit: number; signal?: AbortSignal },
  ): Promise<PushRecord[]> {
    return this.#ports.push.poll(userId, since, options);
  }

  /** The user's live events after `since` (or from now), for a WebSocket (push-feed.ts). */
  feed(userId: string, options: PushFeedOptions): PushFeed {
    return openPushFeed(this.#ports.push, userId, options);
  }

  /** Validates, stores the Sent copy, and queues local and remote delivery (send-message.ts). */
  async send(userId: string, input: SendInput): Promise<StoredMessage> {
    await this.ensureMailbox(userId);
    const accountType = (await this.#ports.metadata.accountType(userId)) ?? 'personal';
    const sent = await sendMessage(
      { ports: this.#ports, domains: this.#domains, now: this.#now },
      userId,
      draftOf(input),
      {
        maxMessageBytes: this.#maxMessageBytes,
        attachmentLimitBytes: attachmentLimitFor(accountType, this.#attachmentLimits),
        maxRecipients: DEFAULT_MAX_RECIPIENTS,
      },
    );
    await this.#changed(userId, sent.email_id, {
      type: 'message.new',
      email_id: sent.email_id,
      folder_id: FOLDER.sent,
    });
    return sent;
  }

  async #changed(userId: string, emailId: string, event: PushEvent): Promise<void> {
    const change: ChangeEvent = { v: 1, type: 'message.changed', user_id: userId, email_id: emailId };
    await this.#ports.queue.enqueue(TOPIC.changes, newEmailId(), change);
    await this.#ports.push.publish(userId, event);
  }
}
