/** Builds RFC 5322 messages with nodemailer's composer (the MIME encoding is the library's). */
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Address } from '../core/address.ts';

export interface ComposeInput {
  readonly from: Address;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** Without angle brackets. */
  readonly messageId: string;
  readonly inReplyTo?: string;
  readonly references: readonly string[];
  readonly date: Date;
  readonly attachments: readonly { filename: string; contentType: string; content: Buffer }[];
  /** Extra MIME parts such as message/delivery-status, attached without a file name. */
  readonly parts?: readonly { contentType: string; content: string }[];
}

const bracket = (id: string): string => `<${id}>`;

function mailbox(a: Address): { name: string; address: string } {
  return { name: a.name, address: a.email };
}

/** The message as sent or delivered. It never carries Bcc: callers pass only To and Cc. */
export async function composeMessage(input: ComposeInput): Promise<Buffer> {
  const composer = new MailComposer({
    from: mailbox(input.from),
    to: input.to.map(mailbox),
    cc: input.cc.map(mailbox),
    subject: input.subject,
    text: input.text,
    ...(input.html === undefined ? {} : { html: input.html }),
    messageId: bracket(input.messageId),
    ...(input.inReplyTo === undefined ? {} : { inReplyTo: bracket(input.inReplyTo) }),
    ...(input.references.length === 0 ? {} : { references: input.references.map(bracket) }),
    date: input.date,
    attachments: [
      ...input.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
      ...(input.parts ?? []).map((p) => ({
        contentType: p.contentType,
        content: p.content,
        contentDisposition: 'inline' as const,
      })),
    ],
  });
  return composer.compile().build();
}
