/**
 * Seeded fuzz of header blocks for `asQuotedPrintable`: random headers built from the pieces
 * that decide how postal-mime reads a body (Content-Type and Content-Transfer-Encoding in plain
 * and unusual forms: folded, commented, spaced, repeated, in any case, with bare CRs or LF-only
 * line ends) around a body full of `=`. Whatever the headers, restating must never change the
 * parse: either the message is left alone, or postal-mime reads the restated one field by field
 * as it reads the original. The hand-written cases are in mime-qp-body.test.ts.
 */
import t from 'tap';
import PostalMime from 'postal-mime';
import { seededRandom } from '@tessera/testkit';
import { asQuotedPrintable } from '../src/mime/qp-body.ts';
import { comparable } from './fixtures/postal-mime-comparable.ts';

/** Forms the restatement takes… */
const PLAIN_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'TEXT/HTML; charset="iso-8859-1"',
  'text/plain;\r\n\tcharset=windows-1252',
  'text/plain; format=flowed; delsp=yes',
  'application/octet-stream',
  'message/rfc822',
];
/** …and forms it must leave alone or read with care. */
const UNUSUAL_TYPES = [
  'multipart/mixed; boundary=b',
  'multipart/alternative;\r\n boundary="b"',
  'text/plain (a comment)',
  '(lead) text/plain',
  '\r\n text/plain',
  'text',
  '',
  'multi(x)part/mixed; boundary=b',
];
const PLAIN_ENCODINGS = ['7bit', '8BIT', 'binary', ' 7bit '];
const UNUSUAL_ENCODINGS = [
  '7bit\r\n\tbase64',
  '7bit\r\n (folded comment)',
  'base64',
  'quoted-printable',
  'Quoted-Printable',
  'x-uuencode',
  '(c) 7bit',
  '7bit (c)',
  '\r\n 7bit',
  '\r\n\tbase64',
  '',
  '7 bit',
];
const PLAIN_KEYS = {
  type: ['Content-Type', 'content-type', 'CONTENT-TYPE'],
  encoding: ['Content-Transfer-Encoding', 'content-transfer-encoding', 'CONTENT-TRANSFER-ENCODING'],
};
const UNUSUAL_KEYS = {
  type: ['Content-Type ', 'Content-type\t'],
  encoding: ['Content-Transfer-Encoding ', 'Content-Transfer-Encoding\t'],
};
const PLAIN_HEADERS = [
  'From: Alice <alice@example.com>',
  'To: bob@example.com',
  'Subject: =?utf-8?Q?a_=3D_b?=',
  'Subject: folded\r\n subject = yes',
  'X-Empty:',
  'no colon at all',
  'MIME-Version: 1.0',
];
const UNUSUAL_HEADERS = [
  'X-Note: multipart is only a word here',
  'X-Note: content-transfer-encoding: base64',
  'X-Fold: a\r\n Content-Transfer-Encoding: base64',
];
const LINE_ENDS = ['\r\n', '\r\n', '\r\n', '\n', '\r\r\n'];

const BLOCKS = 600;
const BOUNDARY_BODY = '--b\r\nContent-Type: text/plain\r\n\r\nx = 1\r\n--b--\r\n';

t.test('seeded random header blocks: restated or not, the parse is the same', async (t) => {
  const random = seededRandom(1414);
  const pick = <T>(items: readonly T[]): T => items[random(items.length)] as T;
  // Mostly plain pieces, so that most blocks are restated and the rare unusual one sits among them.
  const often = <T>(plain: readonly T[], unusual: readonly T[]): T =>
    random(8) === 0 ? pick(unusual) : pick(plain);
  let restated = 0;
  for (let i = 0; i < BLOCKS; i++) {
    const lines: string[] = [];
    const count = 1 + random(4);
    for (let h = 0; h < count; h++) lines.push(often(PLAIN_HEADERS, UNUSUAL_HEADERS));
    const types = random(3); // none, one or two Content-Type headers
    for (let k = 0; k < types; k++)
      lines.splice(
        random(lines.length + 1),
        0,
        `${often(PLAIN_KEYS.type, UNUSUAL_KEYS.type)}: ${often(PLAIN_TYPES, UNUSUAL_TYPES)}`,
      );
    const encodings = random(3);
    for (let k = 0; k < encodings; k++) {
      lines.splice(
        random(lines.length + 1),
        0,
        `${often(PLAIN_KEYS.encoding, UNUSUAL_KEYS.encoding)}:${random(2) === 0 ? ' ' : ''}${often(PLAIN_ENCODINGS, UNUSUAL_ENCODINGS)}`,
      );
    }
    const end = pick(LINE_ENDS);
    const head = lines.map((line) => line.replace(/\r\n/g, end)).join(end);
    // A multipart type gets parts to find: restating those would show in the parse.
    const body =
      /multi/i.test(head) || random(8) === 0
        ? BOUNDARY_BODY
        : Array.from({ length: 1 + random(6) }, () =>
            pick(['a=b', '=', '=3D', 'x =', '==41', 'caf\u00e9']),
          ).join(end);
    const raw = Buffer.from(`${random(20) === 0 ? ' ' : ''}${head}${end}${end}${body}`);
    const restatedRaw = asQuotedPrintable(raw);
    if (restatedRaw === undefined) continue;
    restated++;
    const before = comparable(await PostalMime.parse(raw));
    const after = comparable(await PostalMime.parse(restatedRaw));
    t.same(after, before, `block ${i}: the same parse\n${JSON.stringify(head)}`);
  }
  // The fuzz must exercise the restatement, not only the refusals.
  t.ok(restated > BLOCKS / 4, `restated ${restated} of ${BLOCKS} blocks`);
});
