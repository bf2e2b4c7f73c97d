import t from 'tap';
import { READ, WRITE } from '../helpers/app.ts';
import { startLeaderboardApi as startLeaderboard } from '../helpers/client.ts';

async function seed(lb: Awaited<ReturnType<typeof startLeaderboard>>, scores: Array<[string, number]>) {
  for (const [user_id, points] of scores) {
    const res = await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id, points } });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
}

t.test('GET /v1/scores returns the top 10, highest first, with total', async (t) => {
  const lb = await startLeaderboard(t);
  await seed(
    lb,
    Array.from({ length: 15 }, (_, i): [string, number] => [`p${i}`, i + 1]),
  );
  const res = await lb.call('GET', '/v1/scores', { scopes: READ });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.total, 10);
  t.equal(body.data.length, 10);
  t.same(body.data[0], { user_id: 'p14', user_name: 'p14', rank: 1, score: 15 });
  t.same(
    body.data.map((e: { score: number }) => e.score),
    [15, 14, 13, 12, 11, 10, 9, 8, 7, 6],
  );
});

t.test('equal scores share a rank: 9, 7, 7, 5 → 1, 2, 2, 4', async (t) => {
  const lb = await startLeaderboard(t);
  await seed(lb, [
    ['a', 9],
    ['b', 7],
    ['c', 7],
    ['d', 5],
  ]);
  const body = (await lb.call('GET', '/v1/scores', { scopes: READ })).json();
  t.same(
    body.data.map((e: { rank: number }) => e.rank),
    [1, 2, 2, 4],
  );
});

t.test('LEADERBOARD_TIE_BREAK=earliest: who reached the score first ranks higher', async (t) => {
  const lb = await startLeaderboard(t, { env: { LEADERBOARD_TIE_BREAK: 'earliest' } });
  await seed(lb, [
    ['late', 3],
    ['early', 7],
    ['late', 4],
  ]);
  const body = (await lb.call('GET', '/v1/scores', { scopes: READ })).json();
  t.same(
    body.data.map((e: { user_id: string; rank: number }) => [e.user_id, e.rank]),
    [
      ['early', 1],
      ['late', 2],
    ],
  );
});

t.test('limit (max 100) and offset page through the ranking', async (t) => {
  const lb = await startLeaderboard(t);
  await seed(
    lb,
    Array.from({ length: 30 }, (_, i): [string, number] => [`p${i}`, i + 1]),
  );
  const page = (await lb.call('GET', '/v1/scores?limit=5&offset=10', { scopes: READ })).json();
  t.same(
    page.data.map((e: { rank: number }) => e.rank),
    [11, 12, 13, 14, 15],
  );
  t.equal(page.total, 5);
  t.equal((await lb.call('GET', '/v1/scores?limit=101', { scopes: READ })).statusCode, 400);
  t.equal((await lb.call('GET', '/v1/scores?offset=-1', { scopes: READ })).statusCode, 400);
  t.equal((await lb.call('GET', '/v1/scores?period=2026-13', { scopes: READ })).statusCode, 400);
  t.equal(
    (await lb.call('GET', '/v1/scores?sort=asc', { scopes: READ })).statusCode,
    400,
    'unknown parameter',
  );
});

t.test('around=N adds the window of players above and below, in rank order', async (t) => {
  const lb = await startLeaderboard(t);
  await seed(
    lb,
    Array.from({ length: 10 }, (_, i): [string, number] => [`p${i}`, 10 - i]),
  );
  const res = (await lb.call('GET', '/v1/scores/p5?around=2', { scopes: READ })).json();
  t.same(res.user_info, { user_id: 'p5', score: 5, rank: 6 });
  t.same(
    res.data.map((e: { user_id: string }) => e.user_id),
    ['p3', 'p4', 'p5', 'p6', 'p7'],
  );
  const top = (await lb.call('GET', '/v1/scores/p0?around=4', { scopes: READ })).json();
  t.same(
    top.data.map((e: { rank: number }) => e.rank),
    [1, 2, 3, 4, 5],
  );
  t.equal((await lb.call('GET', '/v1/scores/p0?around=11', { scopes: READ })).statusCode, 400);
});

t.test('user_name comes from the profile store, and a profile change shows at once', async (t) => {
  const lb = await startLeaderboard(t);
  await seed(lb, [
    ['u1', 5],
    ['u2', 3],
  ]);
  const put = await lb.call('PUT', '/v1/users/u1/profile', {
    scopes: ['profiles:write'],
    body: { user_name: 'ace', display_name: 'The Ace' },
  });
  t.equal(put.statusCode, 200);
  t.same(put.json(), { user_id: 'u1', user_name: 'ace', display_name: 'The Ace' });
  let top = (await lb.call('GET', '/v1/scores', { scopes: READ })).json();
  t.same(
    top.data.map((e: { user_name: string }) => e.user_name),
    ['ace', 'u2'],
    'a player without a profile shows the user id',
  );
  await lb.call('GET', '/v1/scores', { scopes: READ }); // warm the cache
  await lb.call('PUT', '/v1/users/u1/profile', {
    scopes: ['profiles:write'],
    body: { user_name: 'ace2', display_name: 'The Ace' },
  });
  top = (await lb.call('GET', '/v1/scores', { scopes: READ })).json();
  t.equal(top.data[0].user_name, 'ace2', 'the cache was invalidated');
  const profile = await lb.call('GET', '/v1/users/u1/profile', { scopes: READ });
  t.same(profile.json(), { user_id: 'u1', user_name: 'ace2', display_name: 'The Ace' });
  t.equal((await lb.call('GET', '/v1/users/u2/profile', { scopes: READ })).statusCode, 404);
});

t.test('profile writes need profiles:write and valid fields', async (t) => {
  const lb = await startLeaderboard(t);
  const body = { user_name: 'ace', display_name: 'Ace' };
  t.equal((await lb.call('PUT', '/v1/users/u1/profile', { scopes: WRITE, body })).statusCode, 403);
  const bad = await lb.call('PUT', '/v1/users/u1/profile', {
    scopes: ['profiles:write'],
    body: { user_name: 'has space', display_name: 'Ace' },
  });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().detail, /user_name/);
});

t.test('the OpenAPI document lists the leaderboard routes with their scopes', async (t) => {
  const lb = await startLeaderboard(t);
  const doc = (await lb.call('GET', '/docs/openapi.json')).json();
  t.ok(doc.paths['/v1/scores'].post);
  t.ok(doc.paths['/v1/scores'].get);
  t.ok(doc.paths['/v1/scores/{user_id}'].get);
  t.same(doc.paths['/v1/scores'].post.security, [{ bearerAuth: ['scores:write'] }]);
});

t.test('names shown to others reject control and bidirectional-override characters', async (t) => {
  const lb = await startLeaderboard(t);
  const put = (display_name: string, user_name = 'ace') =>
    lb.call('PUT', '/v1/users/u1/profile', { scopes: ['profiles:write'], body: { user_name, display_name } });
  for (const bad of [
    'tab\there',
    'nul\u0000',
    'del\u007f',
    'c1\u0085',
    'c1\u009f',
    'rtl\u202eevil',
    'iso\u2066x',
    'mark\u200f',
  ]) {
    const res = await put(bad);
    t.equal(res.statusCode, 400, JSON.stringify(bad));
    t.match(res.json().detail, /display_name/);
  }
  t.equal((await put('ace', 'new\nline')).statusCode, 400, 'user_name too');
  t.equal((await put('Zoë 🎮 Ünïcode')).statusCode, 200, 'other characters are fine');
});
