/**
 * The mail service as its API sees it: one user's mailbox operations. Every method takes the
 * caller's user id first and reads only that user's partition, so no route can reach
 * another user's mail. Sending writes the steps itself (blob, Sent copy, queue jobs), so
 * any adapters behind the ports behave the same.
 */
import type { Readable } from 'node:stream';
import { isValidUserId, localPartOf, mailboxOf, type Address } from './core/address.ts';
import { attachmentLimitFor, type AccountType, type AttachmentLimits } from './core/account.ts';
import { newEmailId, isEmailId } from './core/email-id.ts';
import { envelopeOf, deliveredHeaders } from './core/envelope.ts';
import { TOPIC, type ChangeEvent, type InboundJob, type OutboundJob, type PushEvent } from './core/events.ts';
import {
  FOLDER,
  assertMutableFolder,
  isVirtualFolder,
  validateFolderName,
  type Folder,
} from './core/folders.ts';
import { DEFAULT_MAX_RECIPIENTS, decodeBase64, validateDraft, type Draft } from './core/message.ts';
import { parseSearchQuery } from './core/search-query.ts';
import { normalizeMessageId, resolveThread, threadKeys } from './core/threading.ts';
import { mailErrors } from './errors.ts';
import { composeMessage } from './mime/compose.ts';
import type { MailPorts, MessagePage, PushRecord, StoredMessage } from './ports.ts';
import { attachmentKey, rawKey } from './blob-keys.ts';

export interface SendInput {
  readonly to?: readonly Address[];
  readonly cc?: readonly Address[];
  readonly bcc?: readonly Address[];
  readonly subject: string;
  readonly body: string;
  readonly html?: string;
  readonly attachments?: readonly { filename: string; content_type: string; content: string }[];
  readonly in_reply_to?: string;
  readonly references?: readonly string[];
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

  get #domain(): string {
    return this.#domains[0] ?? 'localhost';
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

  async listMessages(
    userId: string,
    folderId: string,
    options: { limit: number; cursor?: string; isRead?: boolean },
  ): Promise<MessagePage> {
    await this.#folder(userId, folderId);
    if (options.cursor !== undefined && !isEmailId(options.cursor))
      throw mailErrors.MAIL_BAD_CURSOR('the cursor is not valid');
    return this.#ports.metadata.listMessages(userId, folderId, {
      limit: options.limit,
      ...(options.cursor === undefined ? {} : { before: options.cursor }),
      ...(options.isRead === undefined ? {} : { isRead: options.isRead }),
    });
  }

  async message(userId: string, emailId: string): Promise<StoredMessage> {
    const message = isEmailId(emailId) ? await this.#ports.metadata.message(userId, emailId) : undefined;
    if (message === undefined) throw mailErrors.MAIL_MESSAGE_NOT_FOUND(`no message ${emailId}`);
    return message;
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

  /** Validates, stores the Sent copy, and queues local and remote delivery. */
  async send(userId: string, input: SendInput): Promise<StoredMessage> {
    await this.ensureMailbox(userId);
    const draft: Draft = {
      to: input.to ?? [],
      cc: input.cc ?? [],
      bcc: input.bcc ?? [],
      subject: input.subject,
      body: input.body,
      ...(input.html === undefined ? {} : { html: input.html }),
      attachments: (input.attachments ?? []).map((a, i) => ({
        filename: a.filename,
        contentType: a.content_type,
        content: decodeBase64(a.content, `attachments[${i}].content`),
      })),
      ...(input.in_reply_to === undefined ? {} : { inReplyTo: normalizeMessageId(input.in_reply_to) }),
      references: (input.references ?? []).map(normalizeMessageId),
    };
    const accountType = (await this.#ports.metadata.accountType(userId)) ?? 'personal';
    validateDraft(draft, {
      maxMessageBytes: this.#maxMessageBytes,
      attachmentLimitBytes: attachmentLimitFor(accountType, this.#attachmentLimits),
      maxRecipients: DEFAULT_MAX_RECIPIENTS,
    });
    const { metadata, blobs, queue } = this.#ports;
    const at = this.#now();
    const emailId = newEmailId();
    const messageId = `${emailId}@${this.#domain}`;
    const from: Address = { name: '', email: mailboxOf(userId, this.#domain) };
    const raw = await composeMessage({
      from,
      ...deliveredHeaders(draft),
      subject: draft.subject,
      text: draft.body,
      ...(draft.html === undefined ? {} : { html: draft.html }),
      messageId,
      ...(draft.inReplyTo === undefined ? {} : { inReplyTo: draft.inReplyTo }),
      references: draft.references,
      date: new Date(at),
      attachments: draft.attachments,
    });
    const raw_key = rawKey(emailId);
    await blobs.put(raw_key, raw);
    const attachments = [];
    for (const [i, a] of draft.attachments.entries()) {
      const key = attachmentKey(userId, emailId, i);
      await blobs.put(key, a.content);
      attachments.push({
        filename: a.filename,
        content_type: a.contentType,
        size: a.content.length,
        blob_key: key,
      });
    }
    const headers = { messageId, inReplyTo: draft.inReplyTo, references: draft.references };
    const keys = threadKeys(headers);
    const threadId = resolveThread(headers, await metadata.threadsOf(userId, keys), emailId);
    await metadata.linkThread(userId, threadId, keys);
    const sent: StoredMessage = {
      user_id: userId,
      email_id: emailId,
      folder_id: FOLDER.sent,
      thread_id: threadId,
      message_id: messageId,
      ...(draft.inReplyTo === undefined ? {} : { in_reply_to: draft.inReplyTo }),
      references: draft.references,
      from,
      to: draft.to,
      cc: draft.cc,
      bcc: draft.bcc,
      subject: draft.subject,
      body: draft.body,
      ...(draft.html === undefined ? {} : { html: draft.html }),
      is_read: true,
      received_at: at,
      attachments,
    };
    await metadata.insertMessage(sent);
    await this.#changed(userId, emailId, { type: 'message.new', email_id: emailId, folder_id: FOLDER.sent });

    const envelope = envelopeOf(draft, this.#domains);
    if (envelope.local.length > 0) {
      // Same domain: no SMTP, but the worker's spam check and filing, as for any inbound mail.
      const job: InboundJob = {
        v: 1,
        type: 'inbound',
        email_id: newEmailId(),
        raw_key,
        mail_from: from.email,
        recipients: [...new Set(envelope.local.map(localPartOf))],
        auth: { spf: 'pass', dkim: 'none', dmarc: 'none' },
        received_at: at,
      };
      await queue.enqueue(TOPIC.inbound, job.email_id, job);
    }
    for (const recipient of envelope.remote) {
      const job: OutboundJob = {
        v: 1,
        type: 'outbound',
        email_id: emailId,
        raw_key,
        sender_user_id: userId,
        mail_from: from.email,
        recipient,
        subject: draft.subject,
        message_id: messageId,
        queued_at: at,
      };
      await queue.enqueue(TOPIC.outbound, `${emailId}/${recipient}`, job);
    }
    return sent;
  }

  async #changed(userId: string, emailId: string, event: PushEvent): Promise<void> {
    const change: ChangeEvent = { v: 1, type: 'message.changed', user_id: userId, email_id: emailId };
    await this.#ports.queue.enqueue(TOPIC.changes, newEmailId(), change);
    await this.#ports.push.publish(userId, event);
  }
}
