import t from 'tap';
import { createSpamdChecker, parseSpamdReply } from '../../src/adapters/spamd-checker.ts';
import { startSpamd } from '../helpers/peers.ts';
import { startTestMail } from '../helpers/mail.ts';

// SpamAssassin's own test string: every spamd with its shipped rules scores it 1000.
export const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

const message = (body: string) =>
  Buffer.from(
    [
      'From: Alice <alice@example.org>',
      'To: bob@tessera.local',
      'Subject: Friday',
      'Date: Mon, 23 Nov 2026 10:00:00 +0000',
      'Message-ID: <friday@example.org>',
      '',
      body,
      '',
    ].join('\r\n'),
  );

t.test('spamd replies are parsed; protocol errors throw', async (t) => {
  t.same(parseSpamdReply('SPAMD/1.1 0 EX_OK\r\nSpam: True ; 1005.2 / 5.0\r\n\r\nGTUBE,MISSING_DATE'), {
    spam: true,
    score: 1005.2,
    threshold: 5,
    rules: ['GTUBE', 'MISSING_DATE'],
  });
  t.same(parseSpamdReply('SPAMD/1.1 0 EX_OK\r\nSpam: False ; -0.1 / 5.0\r\n\r\n'), {
    spam: false,
    score: -0.1,
    threshold: 5,
    rules: [],
  });
  t.throws(() => parseSpamdReply('SPAMD/1.0 76 Bad header line'), /refused the message: 76/);
  t.throws(() => parseSpamdReply('HTTP/1.1 400'), /something else/);
  t.throws(() => parseSpamdReply('SPAMD/1.1 0 EX_OK\r\n\r\n'), /without a Spam header/);
  t.throws(
    () => parseSpamdReply('SPAMD/1.1 0 EX_OK\r\nSpam: True ; 1.2.3 / 5.0\r\n\r\n'),
    /without numbers/,
    'a score that is not a number never becomes a NaN spam_score',
  );
});

t.test('against a real spamd', async (t) => {
  const spamd = await startSpamd(t);
  const checker = createSpamdChecker(spamd.url);

  t.test('GTUBE is spam, by the GTUBE rule', async (t) => {
    const verdict = await checker.check(message(`Please read: ${GTUBE}`));
    t.equal(verdict.spam, true);
    t.ok(verdict.score >= 1000, `score ${verdict.score}`);
    t.ok(verdict.rules.includes('GTUBE'), verdict.rules.join(','));
  });

  t.test('an ordinary note is not', async (t) => {
    const verdict = await checker.check(message('Shall we meet on Friday at noon?'));
    t.equal(verdict.spam, false, `score ${verdict.score}: ${verdict.rules.join(',')}`);
    t.equal(verdict.threshold, 5);
  });

  t.test('the worker files GTUBE in Junk and a note in the Inbox', async (t) => {
    const mail = await startTestMail(t, { env: { SPAMD_URL: spamd.url }, extra: { smtpIn: false } });
    await mail.service.ensureMailbox('bob');
    await mail.service.send('bob', {
      to: [{ name: '', email: 'bob@tessera.local' }],
      subject: 'Friday',
      body: `Please read: ${GTUBE}`,
    });
    await mail.service.send('bob', {
      to: [{ name: '', email: 'bob@tessera.local' }],
      subject: 'Lunch',
      body: 'Shall we meet on Friday at noon?',
    });
    await mail.settle();
    const junk = await mail.service.listMessages('bob', 'junk', { limit: 10 });
    const inbox = await mail.service.listMessages('bob', 'inbox', { limit: 10 });
    t.same(
      junk.messages.map((m) => m.subject),
      ['Friday'],
    );
    t.same(
      inbox.messages.map((m) => m.subject),
      ['Lunch'],
    );
    t.ok((junk.messages[0]?.spam_score ?? 0) >= 1000, 'spamd’s score is recorded');
  });

  t.test('spamd gone: the check fails (the job is retried), it does not pass mail unchecked', async (t) => {
    const nowhere = createSpamdChecker('spamd://127.0.0.1:1', { timeoutMs: 2000 });
    await t.rejects(nowhere.check(message('hello')), /ECONNREFUSED/);
  });
});
