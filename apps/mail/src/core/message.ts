/**
 * Validation of a message a user sends (POST /v1/messages): the basic checks the web servers
 * make before anything is queued (spec/mail.md, send flow step 3). A failure names the field.
 */
import { mailErrors } from '../errors.ts';
import { isValidDisplayName, isValidEmail, type Address } from './address.ts';

export interface AttachmentDraft {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface Draft {
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly bcc: readonly Address[];
  readonly subject: string;
  readonly body: string;
  readonly html?: string;
  readonly attachments: readonly AttachmentDraft[];
  readonly inReplyTo?: string;
  readonly references: readonly string[];
}

export interface DraftLimits {
  readonly maxMessageBytes: number;
  /** Total of the decoded attachments; depends on the account type. */
  readonly attachmentLimitBytes: number;
  readonly maxRecipients: number;
}

/** RFC 5322 §2.1.1: a line is at most 998 characters; a subject is one (unfolded) line. */
export const MAX_SUBJECT_LENGTH = 998;
export const MAX_FILENAME_LENGTH = 255;
export const DEFAULT_MAX_RECIPIENTS = 100;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MESSAGE_ID = /^<?[^<>\s@]+@[^<>\s@]+>?$/;

/** Decodes an attachment's base64 content; a malformed one names its field. */
export function decodeBase64(content: string, field: string): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw mailErrors.MAIL_INVALID_FIELD(`${field} is not valid base64`, { field });
  }
  return Buffer.from(compact, 'base64');
}

function checkAddresses(list: readonly Address[], header: 'to' | 'cc' | 'bcc'): void {
  list.forEach((address, i) => {
    if (!isValidEmail(address.email)) {
      throw mailErrors.MAIL_INVALID_ADDRESS(
        `${header}[${i}].email is not an address: ${JSON.stringify(address.email)}`,
        {
          field: `${header}[${i}].email`,
        },
      );
    }
    if (!isValidDisplayName(address.name)) {
      throw mailErrors.MAIL_INVALID_ADDRESS(
        `${header}[${i}].name must be one line of at most 256 characters`,
        {
          field: `${header}[${i}].name`,
        },
      );
    }
  });
}

function checkAttachments(draft: Draft, limits: DraftLimits): number {
  let total = 0;
  draft.attachments.forEach((attachment, i) => {
    const name = attachment.filename;
    if (name.length === 0 || name.length > MAX_FILENAME_LENGTH || /[/\\\r\n\0]/.test(name)) {
      throw mailErrors.MAIL_INVALID_FIELD(
        `attachments[${i}].filename must be 1 to ${MAX_FILENAME_LENGTH} characters without slashes or line breaks`,
        { field: `attachments[${i}].filename` },
      );
    }
    total += attachment.content.length;
  });
  if (total > limits.attachmentLimitBytes) {
    throw mailErrors.MAIL_ATTACHMENT_TOO_LARGE(
      `attachments total ${total} bytes, more than the account's limit of ${limits.attachmentLimitBytes}`,
      { field: 'attachments', limit: limits.attachmentLimitBytes },
    );
  }
  return total;
}

/** Throws the first problem found, checked in the order a user would fix them. */
export function validateDraft(draft: Draft, limits: DraftLimits): void {
  const recipients = draft.to.length + draft.cc.length + draft.bcc.length;
  if (recipients === 0)
    throw mailErrors.MAIL_NO_RECIPIENT('a message needs at least one recipient in to, cc or bcc', {
      field: 'to',
    });
  if (recipients > limits.maxRecipients) {
    throw mailErrors.MAIL_TOO_MANY_RECIPIENTS(
      `${recipients} recipients, at most ${limits.maxRecipients} allowed`,
      {
        field: 'to',
        limit: limits.maxRecipients,
      },
    );
  }
  checkAddresses(draft.to, 'to');
  checkAddresses(draft.cc, 'cc');
  checkAddresses(draft.bcc, 'bcc');
  if (draft.subject.length > MAX_SUBJECT_LENGTH || /[\r\n]/.test(draft.subject)) {
    throw mailErrors.MAIL_MESSAGE_TOO_LARGE(
      `subject must be one line of at most ${MAX_SUBJECT_LENGTH} characters`,
      {
        field: 'subject',
        limit: MAX_SUBJECT_LENGTH,
      },
    );
  }
  for (const [field, id] of [
    ['in_reply_to', draft.inReplyTo],
    ...draft.references.map((r, i) => [`references[${i}]`, r]),
  ]) {
    if (id !== undefined && !MESSAGE_ID.test(id)) {
      throw mailErrors.MAIL_INVALID_FIELD(`${field} is not a Message-Id`, { field });
    }
  }
  const attachmentBytes = checkAttachments(draft, limits);
  // Base64 makes attachments a third larger on the wire; the limit is on the encoded message.
  const size =
    Buffer.byteLength(draft.subject) +
    Buffer.byteLength(draft.body) +
    Buffer.byteLength(draft.html ?? '') +
    Math.ceil(attachmentBytes / 3) * 4;
  if (size > limits.maxMessageBytes) {
    throw mailErrors.MAIL_MESSAGE_TOO_LARGE(
      `the message encodes to about ${size} bytes, more than ${limits.maxMessageBytes}`,
      {
        field: 'body',
        limit: limits.maxMessageBytes,
      },
    );
  }
}
