/** Parses received messages with postal-mime into the fields the service stores. */
import PostalMime from 'postal-mime';
import type { Address } from '../core/address.ts';
import { normalizeMessageId, parseMessageIds } from '../core/threading.ts';
import { asQuotedPrintable } from './qp-body.ts';

export interface ParsedAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface ParsedMessage {
  readonly from: Address;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly messageId?: string;
  readonly inReplyTo?: string;
  readonly references: readonly string[];
  readonly date?: number;
  readonly attachments: readonly ParsedAttachment[];
}

interface PostalAddress {
  name?: string;
  address?: string;
  group?: PostalAddress[];
}

function flatten(list: readonly PostalAddress[] | undefined): Address[] {
  const out: Address[] = [];
  for (const a of list ?? []) {
    if (a.group !== undefined) out.push(...flatten(a.group));
    else if (a.address !== undefined && a.address !== '') out.push({ name: a.name ?? '', email: a.address });
  }
  return out;
}

function toBuffer(content: ArrayBuffer | Uint8Array | string): Buffer {
  if (typeof content === 'string') return Buffer.from(content);
  return content instanceof Uint8Array ? Buffer.from(content) : Buffer.from(new Uint8Array(content));
}

/**
 * The bytes as postal-mime takes them without a copy: a Buffer over a whole ArrayBuffer is given
 * as that ArrayBuffer (postal-mime only reads it); a view into a larger one, as itself (copied).
 */
function bytesOf(raw: Buffer): ArrayBuffer | Buffer {
  const { buffer } = raw;
  return buffer instanceof ArrayBuffer && raw.byteOffset === 0 && raw.byteLength === buffer.byteLength
    ? buffer
    : raw;
}

export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  // A plain single-part body goes as quoted-printable: the same result, without postal-mime's
  // Blob part per line (qp-body.ts).
  const email = await PostalMime.parse(bytesOf(asQuotedPrintable(raw) ?? raw));
  const from = flatten(email.from === undefined ? [] : [email.from])[0] ?? {
    name: '',
    email: '',
  };
  const date = email.date === undefined ? NaN : Date.parse(email.date);
  return {
    from,
    to: flatten(email.to),
    cc: flatten(email.cc),
    subject: email.subject ?? '',
    text: email.text ?? '',
    ...(email.html === undefined ? {} : { html: email.html }),
    ...(email.messageId === undefined ? {} : { messageId: normalizeMessageId(email.messageId) }),
    ...(email.inReplyTo === undefined ? {} : { inReplyTo: parseMessageIds(email.inReplyTo)[0] }),
    references: parseMessageIds(email.references),
    ...(Number.isNaN(date) ? {} : { date }),
    attachments: email.attachments.map((a, i) => ({
      filename: a.filename ?? `attachment-${i + 1}`,
      contentType: a.mimeType,
      content: toBuffer(a.content),
    })),
  };
}
