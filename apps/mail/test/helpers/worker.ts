// The worker tests' helpers: the worker over a test mail's ports, and inbound jobs to queue.
import type { InboundJob } from '../../src/core/events.ts';
import { composeMessage } from '../../src/mime/compose.ts';
import { createWorker, type WorkerOptions } from '../../src/roles/worker.ts';
import type { startTestMail } from './mail.ts';

/** Queues an inbound job m1 for bob from `mailFrom`, its raw bytes in the blob store. */
export async function queueInbound(
  mail: Awaited<ReturnType<typeof startTestMail>>,
  raw: Buffer,
  mailFrom: string,
): Promise<void> {
  await mail.ports.blobs.put('raw/m1.eml', raw);
  const job: InboundJob = {
    v: 1,
    type: 'inbound',
    email_id: '01900000-0000-7000-8000-000000000001',
    raw_key: 'raw/m1.eml',
    mail_from: mailFrom,
    recipients: ['bob'],
    auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
    received_at: mail.clock.ms,
  };
  await mail.ports.queue.enqueue('mail.inbound', job.email_id, job);
}

/** The worker over the test mail's ports (some replaced), retrying after 100 ms. */
export function testWorker(
  mail: Awaited<ReturnType<typeof startTestMail>>,
  replaced: Partial<WorkerOptions>,
) {
  return createWorker({
    ...mail.ports,
    domains: ['tessera.local'],
    spamThreshold: 5,
    now: mail.clock.now,
    retryMs: 100,
    ...replaced,
  });
}

/** Queues an inbound job for a message from carol to bob, its raw bytes in the blob store. */
export async function queueMessage(
  mail: Awaited<ReturnType<typeof startTestMail>>,
  emailId: string,
  subject: string,
  inReplyTo?: string,
): Promise<void> {
  const raw = await composeMessage({
    from: { name: '', email: 'carol@remote.test' },
    to: [{ name: '', email: 'bob@tessera.local' }],
    cc: [],
    subject,
    text: 'x',
    messageId: `${subject}@remote.test`,
    ...(inReplyTo === undefined ? {} : { inReplyTo }),
    references: inReplyTo === undefined ? [] : [inReplyTo],
    date: new Date(mail.clock.ms),
    attachments: [],
  });
  await mail.ports.blobs.put(`raw/${emailId}.eml`, raw);
  const job: InboundJob = {
    v: 1,
    type: 'inbound',
    email_id: emailId,
    raw_key: `raw/${emailId}.eml`,
    mail_from: 'carol@remote.test',
    recipients: ['bob'],
    auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
    received_at: mail.clock.ms,
  };
  await mail.ports.queue.enqueue('mail.inbound', emailId, job);
}
