/**
 * Steps that sending (service) and receiving (worker) share when they store a copy: the
 * attachments into the blob store, and the thread the copy joins.
 */
import { attachmentKey } from './blob-keys.ts';
import { resolveThread, threadKeys, type ThreadHeaders } from './core/threading.ts';
import type { AttachmentMeta, BlobStore, MetadataStore } from './ports.ts';

/** Writes each attachment under its owner's key; the metadata row keeps only these references. */
export async function storeAttachments(
  blobs: BlobStore,
  userId: string,
  emailId: string,
  attachments: readonly { filename: string; contentType: string; content: Buffer }[],
): Promise<AttachmentMeta[]> {
  const stored: AttachmentMeta[] = [];
  for (const [i, a] of attachments.entries()) {
    const key = attachmentKey(userId, emailId, i);
    await blobs.put(key, a.content);
    stored.push({ filename: a.filename, content_type: a.contentType, size: a.content.length, blob_key: key });
  }
  return stored;
}

/** The thread of a user's copy (core/threading.ts), recorded for the ids it names. */
export async function joinThread(
  metadata: MetadataStore,
  userId: string,
  headers: ThreadHeaders,
  newThreadId: string,
): Promise<string> {
  const keys = threadKeys(headers);
  const threadId = resolveThread(headers, await metadata.threadsOf(userId, keys), newThreadId);
  await metadata.linkThread(userId, threadId, keys);
  return threadId;
}
