import t from 'tap';
import { createClamdScanner, parseClamdReply } from '../../src/adapters/clamd-scanner.ts';
import { startClamd } from '../helpers/peers.ts';
import { startTestMail } from '../helpers/mail.ts';

// The EICAR test file: harmless, and what every scanner reports as a virus.
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

t.test('clamd replies are parsed; an error throws', async (t) => {
  t.same(parseClamdReply('stream: OK\0'), { infected: false });
  t.same(parseClamdReply('stream: Tessera.Test.EICAR.UNOFFICIAL FOUND\0'), {
    infected: true,
    signature: 'Tessera.Test.EICAR.UNOFFICIAL',
  });
  t.throws(() => parseClamdReply('INSTREAM size limit exceeded. ERROR\0'), /could not scan/);
});

t.test('against a real clamd', async (t) => {
  const clamd = await startClamd(t);
  const scanner = createClamdScanner(clamd.url);

  t.test('EICAR is found', async (t) => {
    const plain = await scanner.scan(Buffer.from(EICAR));
    t.match(plain, { infected: true, signature: /Tessera\.Test\.EICAR/ });
  });

  t.test('clean content, large or small, is OK (INSTREAM chunks)', async (t) => {
    t.same(await scanner.scan(Buffer.from('hello')), { infected: false });
    t.same(await scanner.scan(Buffer.alloc(1_000_000, 'a')), { infected: false });
  });

  t.test('the worker delivers EICAR to no one, quarantines it and bounces a local sender', async (t) => {
    const mail = await startTestMail(t, { env: { CLAMD_URL: clamd.url }, extra: { smtpIn: false } });
    await mail.service.ensureMailbox('alice');
    await mail.service.ensureMailbox('bob');
    const sent = await mail.service.send('alice', {
      to: [{ name: '', email: 'bob@tessera.local' }],
      subject: 'Invoice',
      body: 'See attached.',
      attachments: [
        {
          filename: 'invoice.com',
          content_type: 'application/octet-stream',
          content: Buffer.from(EICAR).toString('base64'),
        },
      ],
    });
    await mail.service.send('alice', {
      to: [{ name: '', email: 'bob@tessera.local' }],
      subject: 'Lunch',
      body: 'Noon?',
    });
    await mail.settle();
    const bobs = [
      ...(await mail.service.listMessages('bob', 'inbox', { limit: 10 })).messages,
      ...(await mail.service.listMessages('bob', 'junk', { limit: 10 })).messages,
    ];
    t.same(
      bobs.map((m) => m.subject),
      ['Lunch'],
      'bob never gets the infected message',
    );
    const alices = (await mail.service.listMessages('alice', 'inbox', { limit: 10 })).messages;
    t.equal(alices.length, 1, 'alice gets a bounce');
    t.match(alices[0]?.body, /virus Tessera\.Test\.EICAR/);
    t.equal(alices[0]?.in_reply_to, sent.message_id);
    t.ok(await mail.ports.blobs.read(`raw/${sent.email_id}.eml`), 'the raw message is kept (quarantine)');
  });
});
