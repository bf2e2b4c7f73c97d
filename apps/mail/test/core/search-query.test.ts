import t from 'tap';
import { parseSearchQuery } from '../../src/core/search-query.ts';

t.test('free text and quoted phrases', async (t) => {
  t.same(parseSearchQuery('budget "next quarter"'), {
    text: ['budget', 'next quarter'],
    from: [],
    to: [],
    subject: [],
  });
  t.same(parseSearchQuery('   '), { text: [], from: [], to: [], subject: [] });
});

t.test('field operators and filters', async (t) => {
  t.same(
    parseSearchQuery(
      'from:bob@x.io to:alice subject:"q3 plan" is:unread has:attachment after:2026-01-01 before:2026/02/01 report',
    ),
    {
      text: ['report'],
      from: ['bob@x.io'],
      to: ['alice'],
      subject: ['q3 plan'],
      unread: true,
      hasAttachment: true,
      before: Date.UTC(2026, 1, 1),
      after: Date.UTC(2026, 0, 1),
    },
  );
  t.same(parseSearchQuery('IS:read').unread, false);
});

t.test('an unknown operator is searched as text', async (t) => {
  t.same(parseSearchQuery('label:work').text, ['label:work']);
});

t.test('bad values are a coded 400 naming the term', async (t) => {
  t.throws(() => parseSearchQuery('before:yesterday'), {
    code: 'MAIL_BAD_QUERY',
    extra: { term: 'before:yesterday' },
  });
  t.throws(() => parseSearchQuery('after:2026-02-30'), { code: 'MAIL_BAD_QUERY' });
  t.throws(() => parseSearchQuery('is:starred'), { code: 'MAIL_BAD_QUERY' });
  t.throws(() => parseSearchQuery('has:pdf'), { code: 'MAIL_BAD_QUERY' });
  t.throws(() => parseSearchQuery('from:'), { code: 'MAIL_BAD_QUERY' });
  t.throws(() => parseSearchQuery('a '.repeat(33)), { code: 'MAIL_BAD_QUERY' });
});
