/**
 * Mail against peers nobody here wrote: swaks and Python's smtplib as senders, dnsmasq as the DNS
 * server smtp-out asks for MX records, and Postfix's smtp-sink as the remote MX (accepting,
 * answering 4xx, answering 5xx).
 */
import { execFile } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { pollUntil } from '@tessera/testkit';
import { createResolver } from '../src/adapters/dns-resolver.ts';
import { startApi } from './helpers/http.ts';
import { startTestMail } from './helpers/mail.ts';
import { startDnsmasq, startSmtpSink, type Peer } from './helpers/peers.ts';

const run = promisify(execFile);

async function swaks(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('swaks', args, { timeout: 30_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

const SMTPLIB = `
import smtplib, sys
from email.message import EmailMessage
port, subject = int(sys.argv[1]), sys.argv[2]
m = EmailMessage()
m['From'] = 'Zoe <zoe@elsewhere.test>'
m['To'] = 'alice@tessera.local'
m['Subject'] = subject
m.set_content('Sent by smtplib: the quarterly figures are attached.')
m.add_attachment(b'1,2,3\\n', maintype='text', subtype='csv', filename='figures.csv')
with smtplib.SMTP('127.0.0.1', port, timeout=30) as s:
    s.send_message(m)
`;

/** The messages a dumping smtp-sink wrote, oldest first. */
function dumped(sink: Peer): string[] {
  return readdirSync(sink.dir)
    .filter((name) => name.startsWith('msg-'))
    .sort()
    .map((name) => readFileSync(join(sink.dir, name), 'utf8'));
}

t.test('inbound from swaks and smtplib shows through REST, search and push', async (t) => {
  const api = await startApi(t, { smtp: true });
  const port = api.mail.smtpIn?.port ?? 0;
  await api.call('GET', '/v1/folders', { user: 'alice' });

  const sent = await swaks([
    '--server',
    `127.0.0.1:${port}`,
    '--from',
    'yann@elsewhere.test',
    '--to',
    'alice@tessera.local',
    '--header',
    'Subject: Swaks says hello',
    '--body',
    'A marmalade sandwich for the road.',
  ]);
  t.equal(sent.code, 0, 'swaks delivered');
  await run('python3', ['-c', SMTPLIB, String(port), 'Quarterly figures'], { timeout: 30_000 });
  await api.mail.settle();

  const inbox = (await api.call('GET', '/v1/folders/inbox/messages', { user: 'alice' })).json<{
    data: { email_id: string; subject: string }[];
  }>().data;
  t.same(inbox.map((m) => m.subject).sort(), ['Quarterly figures', 'Swaks says hello']);
  const figures = inbox.find((m) => m.subject === 'Quarterly figures');
  const detail = (await api.call('GET', `/v1/messages/${figures?.email_id ?? ''}`, { user: 'alice' })).json<{
    from: { email: string };
    attachments: { filename: string; size: number }[];
  }>();
  t.equal(detail.from.email, 'zoe@elsewhere.test');
  t.match(detail.attachments, [{ filename: 'figures.csv', size: 6 }]);

  const found = (await api.call('GET', '/v1/search?q=marmalade', { user: 'alice' })).json<{
    data: { subject: string }[];
  }>().data;
  t.same(
    found.map((m) => m.subject),
    ['Swaks says hello'],
  );
  const bySender = (await api.call('GET', '/v1/search?q=from:zoe%20has:attachment', { user: 'alice' })).json<{
    data: { subject: string }[];
  }>().data;
  t.same(
    bySender.map((m) => m.subject),
    ['Quarterly figures'],
  );

  const events = (await api.call('GET', '/v1/events/poll?since=0&wait_ms=0', { user: 'alice' })).json<{
    data: { type: string; email_id: string }[];
  }>().data;
  t.same(
    events.map((e) => e.email_id).sort(),
    inbox.map((m) => m.email_id).sort(),
    'one message.new push event per delivered message',
  );
});

t.test('an open-relay attempt is refused (550 5.7.1), an unknown local user too (550 5.1.1)', async (t) => {
  const api = await startApi(t, { smtp: true });
  const server = `127.0.0.1:${api.mail.smtpIn?.port ?? 0}`;
  const relay = await swaks([
    '--server',
    server,
    '--from',
    'spam@elsewhere.test',
    '--to',
    'victim@example.com',
  ]);
  t.not(relay.code, 0);
  t.match(relay.output, /<\*\* 550 5\.7\.1/);
  const unknown = await swaks([
    '--server',
    server,
    '--from',
    'x@elsewhere.test',
    '--to',
    'nobody@tessera.local',
  ]);
  t.match(unknown.output, /<\*\* 550 5\.1\.1/);
  t.same(await api.mail.ports.queue.stats('mail.inbound'), { size: 0, oldestAgeMs: 0 }, 'nothing was queued');
});

t.test('outbound through dnsmasq MX records to smtp-sink: delivered, 4xx retried, 5xx bounced', async (t) => {
  const dns = await startDnsmasq(t, {
    mx: {
      'remote.test': [{ exchange: 'mx.remote.test', priority: 10 }],
    },
    a: { 'mx.remote.test': '127.0.0.1' },
  });
  // Each case below uses its own sink on its own port; SMTP_REMOTE_PORT is the port of all MX hosts.
  const mailTo = async (port: number) =>
    startTestMail(t, {
      env: { SMTP_REMOTE_PORT: String(port), MAIL_DNS_SERVER: dns.server },
      resolver: createResolver(dns.server),
      extra: { smtpIn: false },
    });

  t.test('delivered to the MX dnsmasq names', async (t) => {
    const sink = await startSmtpSink(t, { extra: ['-u', 'nobody', '-d', 'msg-%H%M%S.'] });
    chmodSync(sink.dir, 0o777);
    const mail = await mailTo(sink.port);
    await mail.service.send('alice', {
      to: [{ name: 'Bob', email: 'bob@remote.test' }],
      subject: 'Over the wire',
      body: 'Through a real MX lookup.',
    });
    await mail.settle();
    t.same(await mail.ports.queue.stats('mail.outbound'), { size: 0, oldestAgeMs: 0 });
    const messages = dumped(sink);
    t.equal(messages.length, 1, sink.output());
    t.match(messages[0], /Subject: Over the wire/);
    t.match(messages[0], /bob@remote\.test/);
  });

  t.test('a 4xx is retried with back-off and delivered once the peer accepts', async (t) => {
    const busy = await startSmtpSink(t, { extra: ['-u', 'nobody', '-r', 'rcpt'] });
    const mail = await mailTo(busy.port);
    await mail.service.send('alice', {
      to: [{ name: '', email: 'carol@remote.test' }],
      subject: 'Later',
      body: 'b',
    });
    await mail.settle();
    t.equal((await mail.ports.queue.stats('mail.outbound')).size, 1, 'kept after the 4xx');
    mail.clock.advance(999);
    t.equal(await mail.settle(), 0, 'no attempt before the first back-off (1 s)');
    // The peer recovers: the same port now accepts.
    busy.process.kill('SIGTERM');
    await new Promise((resolve) => busy.process.once('exit', resolve));
    const ok = await startSmtpSink(t, { port: busy.port, extra: ['-u', 'nobody', '-d', 'msg-%H%M%S.'] });
    chmodSync(ok.dir, 0o777);
    mail.clock.advance(1);
    await mail.settle();
    t.same(await mail.ports.queue.stats('mail.outbound'), { size: 0, oldestAgeMs: 0 });
    // smtp-sink closes its dump before it answers the final dot, so the first look finds it: the
    // poll is only a guard. The queue is empty, so no second one can come.
    await pollUntil('the sink to dump the message', () => Promise.resolve(dumped(ok).length > 0), {
      ms: 10_000,
      intervalMs: 20,
    });
    t.equal(dumped(ok).length, 1, 'delivered once');
    t.equal(
      (await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages.length,
      0,
      'no bounce',
    );
  });

  t.test('a 5xx becomes a bounce in the sender Inbox', async (t) => {
    const refusing = await startSmtpSink(t, { extra: ['-u', 'nobody', '-f', 'rcpt'] });
    const mail = await mailTo(refusing.port);
    await mail.service.send('alice', {
      to: [{ name: '', email: 'dan@remote.test' }],
      subject: 'Nope',
      body: 'b',
    });
    await mail.settle();
    const inbox = (await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages;
    t.equal(inbox.length, 1);
    t.match(inbox[0]?.body, /dan@remote\.test/);
    t.match(inbox[0]?.subject, /Undeliver|failure|Delivery/i);
  });
});
