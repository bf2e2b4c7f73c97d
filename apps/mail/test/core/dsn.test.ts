import t from 'tap';
import { buildBounce } from '../../src/core/dsn.ts';

t.test('a bounce is an RFC 3464 report from MAILER-DAEMON, threaded under the original', async (t) => {
  const bounce = buildBounce({
    domain: 'tessera.local',
    sender: 'alice@tessera.local',
    recipient: 'gone@remote.test',
    status: '5.1.1',
    diagnostic: '550 5.1.1 User unknown\r\n',
    remoteMta: 'mx.remote.test',
    originalMessageId: 'm1@tessera.local',
    originalSubject: 'Hello',
    arrivedAt: Date.UTC(2026, 0, 1),
    now: Date.UTC(2026, 0, 1, 0, 1),
  });
  t.match(bounce, {
    from: 'MAILER-DAEMON@tessera.local',
    to: 'alice@tessera.local',
    subject: 'Undelivered Mail Returned to Sender: Hello',
    inReplyTo: 'm1@tessera.local',
  });
  t.match(bounce.deliveryStatus, /^Reporting-MTA: dns; tessera\.local\r\n/);
  t.match(
    bounce.deliveryStatus,
    /\r\n\r\nFinal-Recipient: rfc822; gone@remote\.test\r\nAction: failed\r\nStatus: 5\.1\.1\r\nRemote-MTA: dns; mx\.remote\.test\r\n/,
  );
  t.match(
    bounce.deliveryStatus,
    /Diagnostic-Code: smtp; 550 5\.1\.1 User unknown \r\n/,
    'no line break from the remote reply',
  );
  t.match(bounce.text, /gone@remote\.test/);
});

t.test('a message without a subject gets a bounce subject without a dangling colon', async (t) => {
  const bounce = buildBounce({
    domain: 'd.io',
    sender: 's@d.io',
    recipient: 'r@x.io',
    status: '5.0.0',
    diagnostic: 'no',
    originalSubject: '',
    arrivedAt: 0,
    now: 0,
  });
  t.equal(bounce.subject, 'Undelivered Mail Returned to Sender');
  t.match(bounce.text, /^Your message could not be delivered to r@x\.io\./);
});
