/**
 * A folder list answers, byte for byte, what the messages themselves say: each entry is its
 * message's GET answer cut to the summary (the first 200 UTF-16 code units of the body as the
 * snippet, whether it has attachments), however the body's characters fall on that boundary.
 */
import t from 'tap';
import { startApi } from '../helpers/http.ts';

const SUMMARY_KEYS = [
  'email_id',
  'user_id',
  'folder_id',
  'thread_id',
  'from',
  'to',
  'cc',
  'subject',
  'snippet',
  'is_read',
  'received_at',
  'has_attachments',
] as const;

const a = 'a'.repeat(199);
const BODIES = [
  'short',
  `${a}😀 a pair across the cut`,
  `${a}b😀`,
  `${'😀'.repeat(150)}`,
  `lone \ud83d half, "quotes" \\ and\ncontrols\u0001`,
  'é'.repeat(4000),
];

interface Answer {
  body: string;
  attachments: unknown[];
  [key: string]: unknown;
}

t.test('list entries are the messages cut to their summaries, byte for byte', async (t) => {
  const api = await startApi(t);
  for (const [i, body] of BODIES.entries())
    await api.call('POST', '/v1/messages', {
      user: 'alice',
      body: {
        to: [{ name: 'Bob "B" Ö', email: 'x@remote.test' }],
        cc: i % 2 === 0 ? [] : [{ name: '', email: 'y@remote.test' }],
        subject: `m${i} ✓`,
        body,
        attachments: i % 2 === 0 ? [] : [{ filename: 'a.txt', content_type: 'text/plain', content: 'aGk=' }],
      },
    });
  const list = await api.call('GET', '/v1/folders/sent/messages?limit=100', { user: 'alice' });
  t.equal(list.statusCode, 200);
  const entries = list.json<{ data: { email_id: string }[] }>().data;
  t.equal(entries.length, BODIES.length);
  const expected = [];
  for (const entry of entries) {
    const got = await api.call('GET', `/v1/messages/${entry.email_id}`, { user: 'alice' });
    const whole = got.json<Answer>();
    const cut: Record<string, unknown> = { ...whole, snippet: whole.body.slice(0, 200) };
    cut.has_attachments = whole.attachments.length > 0;
    expected.push(Object.fromEntries(SUMMARY_KEYS.map((key) => [key, cut[key]])));
  }
  t.same(
    expected.map((e) => e.subject),
    BODIES.map((_, i) => `m${i} ✓`).reverse(),
  );
  t.equal(list.body, JSON.stringify({ data: expected }));
});
