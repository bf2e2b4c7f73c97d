import t from 'tap';
import { draftOf, sendMessage } from '../src/send-message.ts';
import { startTestMail } from './helpers/mail.ts';

const limits = { maxMessageBytes: 1_000_000, attachmentLimitBytes: 1_000_000, maxRecipients: 100 };

t.test(
  'one Sent copy, one inbound job for the local recipients, one outbound job per remote one',
  async (t) => {
    const mail = await startTestMail(t, { extra: { smtpIn: false } });
    const draft = draftOf({
      to: [
        { name: 'Bob', email: 'bob@tessera.local' },
        { name: '', email: 'x@remote.test' },
      ],
      cc: [{ name: '', email: 'carol@example.org' }],
      bcc: [{ name: 'Hidden', email: 'hidden@remote.test' }],
      subject: 'Plan',
      body: 'b',
    });
    const sent = await sendMessage(
      { ports: mail.ports, domains: ['tessera.local', 'example.org'], now: mail.clock.now },
      'alice',
      draft,
      limits,
    );
    t.match(sent, { folder_id: 'sent', is_read: true, from: { email: 'alice@tessera.local' } });
    t.same(await mail.ports.metadata.message('alice', sent.email_id), sent);

    const raw = (await mail.ports.blobs.read(`raw/${sent.email_id}.eml`))?.toString() ?? '';
    t.match(raw, /^To: Bob <bob@tessera\.local>, x@remote\.test$/m);
    t.notMatch(raw, /hidden/i, 'the Bcc recipient is not in the message');

    const inbound = await mail.ports.queue.claim<{ recipients: string[] }>('mail.inbound', {
      limit: 10,
      leaseMs: 1,
    });
    t.same(
      inbound.map((j) => j.payload.recipients),
      [['bob', 'carol']],
    );
    const outbound = await mail.ports.queue.claim<{ recipient: string }>('mail.outbound', {
      limit: 10,
      leaseMs: 1,
    });
    t.same(outbound.map((j) => j.payload.recipient).sort(), ['hidden@remote.test', 'x@remote.test']);
  },
);

t.test('nothing is stored or queued when the draft is invalid', async (t) => {
  const mail = await startTestMail(t, { extra: { smtpIn: false } });
  await t.rejects(
    sendMessage(
      { ports: mail.ports, domains: ['tessera.local'], now: mail.clock.now },
      'alice',
      draftOf({ subject: 's', body: 'b' }),
      limits,
    ),
    { code: 'MAIL_NO_RECIPIENT' },
  );
  t.same(await mail.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 });
  t.same(await mail.ports.queue.stats('mail.outbound'), { size: 0, oldestAgeMs: 0 });
});
