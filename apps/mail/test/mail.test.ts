import t from 'tap';
import nodemailer from 'nodemailer';
import { startTestMail } from './helpers/mail.ts';

t.test('with its consumers running, mail flows from SMTP to the Inbox and the index by itself', async (t) => {
  const mail = await startTestMail(t, { extra: { consumers: true, pollMs: 20 } });
  await mail.service.ensureMailbox('alice');
  const waiting = mail.service.poll('alice', 0, { waitMs: 10_000, limit: 10 });
  await nodemailer
    .createTransport({ host: '127.0.0.1', port: mail.smtpIn?.port ?? 0, secure: false, ignoreTLS: true })
    .sendMail({
      from: 'bob@remote.test',
      to: 'alice@tessera.local',
      subject: 'Pushed',
      text: 'searchable words',
    });
  t.match(
    await waiting,
    [{ event: { type: 'message.new', folder_id: 'inbox' } }],
    'pushed to a waiting poll',
  );
  let found = 0;
  for (let i = 0; i < 200 && found === 0; i++) {
    found = (await mail.service.search('alice', 'searchable', { limit: 10 })).messages.length;
    if (found === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.equal(found, 1, 'indexed without anyone calling settle');
  t.same(await mail.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 }, 'nothing left behind');
  await mail.close();
});
