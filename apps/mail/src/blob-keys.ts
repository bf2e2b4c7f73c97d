/** Where blobs live in the blob store, shared by every role that writes or reads them. */

export function rawKey(emailId: string): string {
  return `raw/${emailId}.eml`;
}

/** Attachments sit under their owner (hex, so any user id is a safe path segment). */
export function attachmentKey(userId: string, emailId: string, position: number): string {
  return `att/${Buffer.from(userId).toString('hex')}/${emailId}/${position}`;
}
