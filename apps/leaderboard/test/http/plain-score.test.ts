import t from 'tap';
import { plainScore } from '../../src/http/plain-score.ts';

/**
 * The fast write takes only bodies the full route would accept as they are; every other body is
 * declined (undefined) and left to the full route's validation and its problem answer.
 */
t.test('a plain body is taken as it is', async (t) => {
  t.same(plainScore({ user_id: 'ada', points: 3 }, 100), { userId: 'ada', points: 3 });
  t.same(plainScore({ points: 100, user_id: 'a-b_C9', match_id: 'm:1' }, 100), {
    userId: 'a-b_C9',
    points: 100,
    matchId: 'm:1',
  });
  t.same(plainScore({ user_id: 'x'.repeat(64), points: 1, match_id: '!'.repeat(128) }, 1), {
    userId: 'x'.repeat(64),
    points: 1,
    matchId: '!'.repeat(128),
  });
});

t.test('anything the schema would refuse, coerce or strip is declined', async (t) => {
  const declined: unknown[] = [
    null,
    'ada',
    [],
    [{ user_id: 'ada', points: 1 }],
    {},
    { user_id: 'ada' },
    { points: 1 },
    { user_id: 'ada', points: 1, extra: true },
    JSON.parse('{"user_id":"ada","points":1,"__proto__":{"admin":true}}'),
    { user_id: '', points: 1 },
    { user_id: 'x'.repeat(65), points: 1 },
    { user_id: 'a b', points: 1 },
    { user_id: 'ad\u00e9', points: 1 },
    { user_id: 7, points: 1 },
    { user_id: 'ada', points: '1' },
    { user_id: 'ada', points: 0 },
    { user_id: 'ada', points: -1 },
    { user_id: 'ada', points: 1.5 },
    { user_id: 'ada', points: 101 },
    { user_id: 'ada', points: Number.NaN },
    { user_id: 'ada', points: true },
    { user_id: 'ada', points: 1, match_id: '' },
    { user_id: 'ada', points: 1, match_id: 'with space' },
    { user_id: 'ada', points: 1, match_id: 'x'.repeat(129) },
    { user_id: 'ada', points: 1, match_id: 5 },
    { user_id: 'ada', points: 1, match_id: null },
  ];
  for (const body of declined) t.equal(plainScore(body, 100), undefined, JSON.stringify(body));
});
