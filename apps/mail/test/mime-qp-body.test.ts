/**
 * Differential test of `asQuotedPrintable`: postal-mime's parse of the restated message against
 * its parse of the message as received, every field but the header lists (which carry the
 * header put first), over the bench corpus, hand-written edge cases and seeded random bodies.
 */
import t, { type Test } from 'tap';
import PostalMime from 'postal-mime';
import { seededRandom } from '@tessera/testkit';
import { Corpus } from '../bench/corpus.ts';
import { composeMessage } from '../src/mime/compose.ts';
import { parseMessage } from '../src/mime/parse.ts';
import { asQuotedPrintable } from '../src/mime/qp-body.ts';
import { comparable } from './fixtures/postal-mime-comparable.ts';

/** Parses both ways; `expectRestated` says whether the fast path must apply. */
async function same(t: Test, name: string, raw: Buffer, expectRestated: boolean): Promise<void> {
  const restated = asQuotedPrintable(raw);
  t.equal(restated !== undefined, expectRestated, `${name}: restated or not`);
  const before = comparable(await PostalMime.parse(raw));
  const after = comparable(await PostalMime.parse(restated ?? raw));
  t.same(after, before, `${name}: the same parse`);
}

const HEAD = 'From: Alice <alice@example.com>\r\nTo: bob@example.com\r\nSubject: hello\r\n';

const plainCases: readonly (readonly [string, string | Buffer])[] = [
  [
    'smtp-source style',
    `${HEAD}\r\n${Array.from({ length: 52 }, (_, i) => `${i}${'X'.repeat(77)}`).join('\r\n')}\r\n`,
  ],
  ['230 short lines', `${HEAD}\r\n${Array.from({ length: 230 }, (_, i) => `l${i}`).join('\r\n')}`],
  ['equals everywhere', `${HEAD}\r\n=\r\na=\r\n=3D\r\n==41\r\n=4\r\n= \r\n=\r\n=`],
  ['soft-break look-alikes', `${HEAD}Content-Transfer-Encoding: 7bit\r\n\r\nline=\r\nnext=20\r\nend`],
  ['LF only', 'From: a@b.c\nSubject: lf\n\nbody one\nbody = two\n\nthree\n'],
  ['bare and doubled CR', `${HEAD}\r\r\nfirst\r\r\nin\rside\r\n\r\r\nlast`],
  ['no trailing newline', `${HEAD}\r\nonly line`],
  ['empty body', `${HEAD}\r\n`],
  [
    '8bit explicit, utf-8',
    `${HEAD}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nGrüße = Straße\r\n`,
  ],
  ['binary', `${HEAD}Content-Transfer-Encoding: BINARY\r\n\r\nx=y\r\n`],
  [
    'html single part',
    `${HEAD}Content-Type: text/html; charset=utf-8\r\n\r\n<p style="a">Hi =&gt; there</p>\r\n<br>\r\n`,
  ],
  [
    'format=flowed delsp',
    `${HEAD}Content-Type: text/plain; format=flowed; delsp=yes\r\n\r\nsoft \r\nwrapped = \r\nline\r\n`,
  ],
  ['folded content type', `${HEAD}Content-Type: text/plain;\r\n\tcharset="iso-8859-1"\r\n\r\nna=EFve\r\n`],
  [
    'encoded-word headers',
    'From: =?utf-8?B?SsO8cmdlbg==?= <j@example.com>\r\nSubject: =?iso-8859-1?Q?caf=E9?=\r\n\r\nbody=\r\n',
  ],
  [
    'attachment disposition',
    `${HEAD}Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="a=b.bin"\r\n\r\n\u0001=\u0002\r\n`,
  ],
  [
    'nested message/rfc822',
    `${HEAD}Content-Type: message/rfc822\r\n\r\nFrom: c@d.e\r\nSubject: inner\r\n\r\ninner = body\r\n`,
  ],
  ['no headers', '\r\nbody only = yes\r\n'],
  ['no content headers, lone key', `Subject: x\r\nweird line without colon\r\n\r\na=b`],
];

const latin1 = Buffer.concat([
  Buffer.from(`${HEAD}Content-Type: text/plain; charset=iso-8859-1\r\n\r\n`),
  Buffer.from('caf\u00e9 = cr\u00e8me\r\n', 'latin1'),
]);
const cp1252 = Buffer.concat([
  Buffer.from(`${HEAD}Content-Type: text/plain; charset=windows-1252\r\n\r\n`),
  Buffer.from([0x80, 0x3d, 0x93, 0x71, 0x94, 0x0d, 0x0a, 0x3d]),
]);

const leftAlone: readonly (readonly [string, string])[] = [
  ['base64', `${HEAD}Content-Transfer-Encoding: base64\r\n\r\naGVsbG8=\r\n`],
  ['quoted-printable', `${HEAD}Content-Transfer-Encoding: quoted-printable\r\n\r\nh=C3=A9\r\n`],
  [
    '7bit then base64',
    `${HEAD}Content-Transfer-Encoding: 7bit\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=\r\n`,
  ],
  ['encoding with a comment', `${HEAD}Content-Transfer-Encoding: (c) base64\r\n\r\naGk=\r\n`],
  ['folded encoding', `${HEAD}Content-Transfer-Encoding:\r\n base64\r\n\r\naGk=\r\n`],
  ['key before a fold', `${HEAD}Content-Transfer-Encoding\r\n : base64\r\n\r\naGk=\r\n`],
  ['multipart', `${HEAD}Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nx=y\r\n--b--\r\n`],
  [
    'multipart in a comment',
    `${HEAD}Content-Type: multi(x)part/mixed; boundary=b\r\n\r\n--b\r\n\r\nx=y\r\n--b--\r\n`,
  ],
  [
    'type on a folded line',
    `${HEAD}Content-Type:\r\n multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n`,
  ],
  ['spaced key', `${HEAD}Content-Type : text/plain\r\n\r\nx=y\r\n`],
  ['leading fold', ' From: a@b.c\r\n\r\nx=y\r\n'],
  ['headers only', `${HEAD}`],
];

t.test('plain single-part bodies are restated and parse the same', async (t) => {
  for (const [name, raw] of plainCases) await same(t, name, Buffer.from(raw), true);
  await same(t, 'iso-8859-1', latin1, true);
  await same(t, 'windows-1252', cp1252, true);
});

t.test('anything not plainly single-part and undecoded is left alone', async (t) => {
  for (const [name, raw] of leftAlone) await same(t, name, Buffer.from(raw), false);
});

t.test('composed messages are left alone; their bodies sent as 7bit parse the same', async (t) => {
  const corpus = new Corpus({ seed: 13, users: 4 });
  for (let i = 0; i < 40; i++) {
    const m = corpus.message(corpus.user(), corpus.receivedAt(), `tok${i}`);
    const raw = await composeMessage({
      from: m.from,
      to: m.to,
      cc: m.cc,
      subject: i % 3 === 0 ? `Grüße ${m.subject}` : m.subject,
      text: m.body,
      ...(i % 4 === 1 ? { html: `<p>${m.body}</p>` } : {}),
      messageId: m.message_id,
      references: [],
      date: new Date(m.received_at),
      attachments:
        i % 5 === 2
          ? [
              {
                filename: 'a.bin',
                contentType: 'application/octet-stream',
                content: Buffer.from([0, 61, 255]),
              },
              { filename: 'n.txt', contentType: 'text/plain', content: Buffer.from('caf\u00e9 = ok\n') },
            ]
          : [],
      ...(i % 7 === 3
        ? { parts: [{ contentType: 'message/rfc822', content: `Subject: in\r\n\r\n${m.body}` }] }
        : {}),
    });
    // What we compose is quoted-printable or multipart: never restated, parsed as it is.
    t.equal(asQuotedPrintable(raw), undefined, `corpus message ${i}: left alone`);
    // The corpus body as a plain 7bit message, as most plain-text mail arrives.
    const plain = Buffer.from(
      `${HEAD}Content-Type: text/plain; charset=utf-8\r\n\r\n${m.body.replace(/\n/g, '\r\n')}`,
    );
    await same(t, `corpus body ${i} as 7bit`, plain, true);
  }
});

t.test('seeded random bodies (=, CR, LF, 8-bit bytes) parse the same', async (t) => {
  const random = seededRandom(1313);
  const alphabet = [0x3d, 0x3d, 0x0d, 0x0a, 0x0a, 0x20, 0x09, 0x41, 0x33, 0x44, 0x66, 0x80, 0xe9, 0xff, 0x00];
  const charsets = ['utf-8', 'iso-8859-1', 'windows-1252', 'us-ascii', 'koi8-r'];
  for (let i = 0; i < 300; i++) {
    const body = Buffer.from(
      Array.from({ length: random(400) }, () => alphabet[random(alphabet.length)] ?? 0x41),
    );
    const head = `${HEAD}Content-Type: text/${random(4) === 0 ? 'html' : 'plain'}; charset=${charsets[random(charsets.length)] ?? 'utf-8'}\r\n\r\n`;
    await same(t, `random ${i}`, Buffer.concat([Buffer.from(head), body]), true);
  }
});

t.test('a header of a million bare CRs is read in linear time', async (t) => {
  // With a regex trimming the CRs of each header line, this took hours (quadratic in the run).
  const raw = Buffer.from(`${HEAD}X-A: ${'\r'.repeat(1_000_000)}y\r\n\r\nbody = 1\r\n`);
  await same(t, 'a long run of bare CRs', raw, true);
});

t.test('parseMessage gives the stored fields of the message as received', async (t) => {
  const raw = Buffer.from(`${HEAD}Message-ID: <m1@x>\r\n\r\nprice = 10\r\nline=\r\n`);
  const parsed = await parseMessage(raw);
  t.equal(parsed.text, 'price = 10\nline=\n');
  t.equal(parsed.subject, 'hello');
  t.same(parsed.from, { name: 'Alice', email: 'alice@example.com' });
  t.equal(parsed.messageId, 'm1@x');
});
