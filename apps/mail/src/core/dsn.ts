/**
 * The bounce a sender gets when a message cannot be delivered: a delivery status
 * notification (RFC 3464) from MAILER-DAEMON of the primary domain, threaded under the
 * original message.
 */

export interface BounceInput {
  readonly domain: string;
  readonly sender: string;
  readonly recipient: string;
  /** Enhanced status code (RFC 3463), e.g. 5.1.1. */
  readonly status: string;
  /** The remote server's reply or our own reason. */
  readonly diagnostic: string;
  readonly remoteMta?: string;
  readonly originalMessageId?: string;
  readonly originalSubject: string;
  readonly arrivedAt: number;
  readonly now: number;
}

export interface Bounce {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The machine-readable message/delivery-status part. */
  readonly deliveryStatus: string;
  readonly inReplyTo?: string;
}

export function buildBounce(input: BounceInput): Bounce {
  const perRecipient = [
    `Final-Recipient: rfc822; ${input.recipient}`,
    'Action: failed',
    `Status: ${input.status}`,
    ...(input.remoteMta === undefined ? [] : [`Remote-MTA: dns; ${input.remoteMta}`]),
    `Diagnostic-Code: smtp; ${input.diagnostic.replace(/[\r\n]+/g, ' ')}`,
    `Last-Attempt-Date: ${new Date(input.now).toUTCString()}`,
  ];
  const deliveryStatus = [
    `Reporting-MTA: dns; ${input.domain}`,
    `Arrival-Date: ${new Date(input.arrivedAt).toUTCString()}`,
    '',
    ...perRecipient,
    '',
  ].join('\r\n');
  const text = [
    `Your message${input.originalSubject === '' ? '' : ` "${input.originalSubject}"`} could not be delivered to ${input.recipient}.`,
    '',
    `Reason: ${input.diagnostic}`,
    '',
    'This is a permanent failure; the message will not be retried.',
  ].join('\n');
  return {
    from: `MAILER-DAEMON@${input.domain}`,
    to: input.sender,
    subject: (input.originalSubject === ''
      ? 'Undelivered Mail Returned to Sender'
      : `Undelivered Mail Returned to Sender: ${input.originalSubject}`
    ).slice(0, 998),
    text,
    deliveryStatus,
    ...(input.originalMessageId === undefined ? {} : { inReplyTo: input.originalMessageId }),
  };
}
