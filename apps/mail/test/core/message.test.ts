import t from 'tap';
import { decodeBase64, validateDraft, type Draft } from '../../src/core/message.ts';

const limits = { maxMessageBytes: 10_000, attachmentLimitBytes: 1000, maxRecipients: 3 };
const base: Draft = {
  to: [{ name: 'Bob', email: 'bob@x.io' }],
  cc: [],
  bcc: [],
  subject: 'Hi',
  body: 'Hello',
  attachments: [],
  references: [],
};

function codeOf(draft: Draft): { code?: string; field?: unknown } {
  try {
    validateDraft(draft, limits);
    return {};
  } catch (error) {
    const e = error as { code: string; extra: { field?: unknown } };
    return { code: e.code, field: e.extra.field };
  }
}

t.test('a valid draft passes; a Bcc-only draft has a recipient', async (t) => {
  t.same(codeOf(base), {});
  t.same(codeOf({ ...base, to: [], bcc: [{ name: '', email: 'c@x.io' }] }), {});
});

t.test('each rule names its field', async (t) => {
  const att = (size: number, filename = 'a.bin') => ({
    filename,
    contentType: 'application/octet-stream',
    content: Buffer.alloc(size),
  });
  const cases: [Partial<Draft>, string, string][] = [
    [{ to: [] }, 'MAIL_NO_RECIPIENT', 'to'],
    [
      { to: Array.from({ length: 4 }, (_, i) => ({ name: '', email: `u${i}@x.io` })) },
      'MAIL_TOO_MANY_RECIPIENTS',
      'to',
    ],
    [{ cc: [{ name: '', email: 'nope' }] }, 'MAIL_INVALID_ADDRESS', 'cc[0].email'],
    [{ bcc: [{ name: 'a\nb', email: 'c@x.io' }] }, 'MAIL_INVALID_ADDRESS', 'bcc[0].name'],
    [{ subject: 'x'.repeat(999) }, 'MAIL_MESSAGE_TOO_LARGE', 'subject'],
    [{ subject: 'a\r\nBcc: eve@x.io' }, 'MAIL_MESSAGE_TOO_LARGE', 'subject'],
    [{ inReplyTo: 'no-at-sign' }, 'MAIL_INVALID_FIELD', 'in_reply_to'],
    [{ references: ['a@b', 'bad id'] }, 'MAIL_INVALID_FIELD', 'references[1]'],
    [{ attachments: [att(600), att(401)] }, 'MAIL_ATTACHMENT_TOO_LARGE', 'attachments'],
    [{ attachments: [att(1, '../etc/passwd')] }, 'MAIL_INVALID_FIELD', 'attachments[0].filename'],
    [{ body: 'x'.repeat(10_001) }, 'MAIL_MESSAGE_TOO_LARGE', 'body'],
  ];
  for (const [change, code, field] of cases) t.same(codeOf({ ...base, ...change }), { code, field }, code);
});

t.test('the attachment limit is exactly inclusive', async (t) => {
  const at = (n: number) => ({ filename: 'a', contentType: 'x/y', content: Buffer.alloc(n) });
  t.same(codeOf({ ...base, attachments: [at(1000)] }), {});
  t.same(codeOf({ ...base, attachments: [at(1001)] }).code, 'MAIL_ATTACHMENT_TOO_LARGE');
});

t.test('base64 is decoded strictly', async (t) => {
  t.equal(decodeBase64('aGVs\nbG8=', 'f').toString(), 'hello');
  t.throws(() => decodeBase64('aGVsbG8', 'attachments[0].content'), { code: 'MAIL_INVALID_FIELD' });
  t.throws(() => decodeBase64('a$==', 'f'), { code: 'MAIL_INVALID_FIELD' });
});
