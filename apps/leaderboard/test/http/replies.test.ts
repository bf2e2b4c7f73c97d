import t from 'tap';
import { userInfo, userInfoJson } from '../../src/http/replies.ts';

/** The edge's standing body is written by a template: it must be JSON.stringify's, byte for byte. */
t.test('userInfoJson writes what JSON.stringify writes of userInfo', async (t) => {
  const standings = [
    { userId: 'ada', score: 5, rank: 1 },
    { userId: 'a-b_C9', score: 0, rank: 100_000 },
    { userId: 'x'.repeat(64), score: Number.MAX_SAFE_INTEGER, rank: 2 ** 31 },
    { userId: 'p00000000000000000001869f', score: 1e21, rank: 3 },
    // Ids the routes never let through, quoted all the same.
    { userId: 'quote"back\\slash', score: 7, rank: 4 },
    { userId: 'ctl\u0001\n\u2028é😀', score: 8, rank: 5 },
    { userId: '\ud800', score: 9, rank: 6 },
  ];
  for (const [i, standing] of standings.entries()) {
    const json = userInfoJson(standing);
    t.equal(json, JSON.stringify({ user_info: userInfo(standing) }), `standing ${i}`);
    t.same(JSON.parse(json), {
      user_info: { user_id: standing.userId, score: standing.score, rank: standing.rank },
    });
  }
});
