import t from 'tap';
import { READ, WRITE } from '../helpers/app.ts';
import { startLeaderboardApi as startLeaderboard } from '../helpers/client.ts';

t.test('POST /v1/scores adds points and answers with the standing', async (t) => {
  const lb = await startLeaderboard(t);
  const first = await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'alice', points: 3 } });
  t.equal(first.statusCode, 200);
  t.same(first.json(), { user_info: { user_id: 'alice', score: 3, rank: 1 } });
  const second = await lb.call('POST', '/v1/scores', {
    scopes: WRITE,
    body: { user_id: 'alice', points: 2 },
  });
  t.same(second.json(), { user_info: { user_id: 'alice', score: 5, rank: 1 } });
});

t.test('a score is visible to the next read after its POST returns', async (t) => {
  const lb = await startLeaderboard(t);
  await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'bob', points: 4 } });
  const read = await lb.call('GET', '/v1/scores/bob', { scopes: READ });
  t.equal(read.statusCode, 200);
  t.same(read.json(), { user_info: { user_id: 'bob', score: 4, rank: 1 } });
});

t.test('match_id makes the call idempotent', async (t) => {
  const lb = await startLeaderboard(t);
  const body = { user_id: 'carol', points: 7, match_id: 'match-42' };
  const first = await lb.call('POST', '/v1/scores', { scopes: WRITE, body });
  const retry = await lb.call('POST', '/v1/scores', { scopes: WRITE, body });
  t.equal(retry.statusCode, 200);
  t.same(retry.json(), first.json(), 'the retry gets the same answer');
  t.equal(retry.headers['idempotent-replayed'], 'true');
  const read = await lb.call('GET', '/v1/scores/carol', { scopes: READ });
  t.equal(read.json().user_info.score, 7, 'the retry added nothing');
});

t.test('only game servers may add points: 401 without a token, 403 without scores:write', async (t) => {
  const lb = await startLeaderboard(t);
  const body = { user_id: 'mallory', points: 10 };
  const anonymous = await lb.call('POST', '/v1/scores', { body });
  t.equal(anonymous.statusCode, 401);
  t.equal(anonymous.headers['content-type'], 'application/problem+json; charset=utf-8');
  t.equal(anonymous.json().status, 401);
  const client = await lb.call('POST', '/v1/scores', { scopes: READ, body });
  t.equal(client.statusCode, 403);
  t.match(client.json().detail, /scores:write/);
  const read = await lb.call('GET', '/v1/scores/mallory', { scopes: READ });
  t.equal(read.statusCode, 404, 'nothing was added');
});

t.test('reads need a token with scores:read', async (t) => {
  const lb = await startLeaderboard(t);
  t.equal((await lb.call('GET', '/v1/scores')).statusCode, 401);
  t.equal((await lb.call('GET', '/v1/scores', { scopes: ['profiles:write'] })).statusCode, 403);
});

t.test('bad input is a 400 problem that names the field', async (t) => {
  const lb = await startLeaderboard(t);
  const cases: Array<[unknown, RegExp]> = [
    [{ points: 1 }, /user_id/],
    [{ user_id: 'a', points: 0 }, /points/],
    [{ user_id: 'a', points: 10_001 }, /points/],
    [{ user_id: 'a', points: 1.5 }, /points/],
    [{ user_id: 'a', points: '5' }, /points/],
    [{ user_id: 'not valid!', points: 1 }, /user_id/],
    [{ user_id: 'x'.repeat(65), points: 1 }, /user_id/],
    [{ user_id: '', points: 1 }, /user_id/],
    [{ user_id: 'a', points: 1, bonus: 5 }, /bonus/],
    [{ user_id: 'a', points: 1, match_id: '' }, /match_id/],
  ];
  for (const [body, field] of cases) {
    const res = await lb.call('POST', '/v1/scores', { scopes: WRITE, body });
    t.equal(res.statusCode, 400, JSON.stringify(body));
    const problem = res.json();
    t.equal(problem.status, 400);
    t.match(problem.detail, field, `detail names the field for ${JSON.stringify(body)}`);
  }
});

t.test('the points limit is configurable', async (t) => {
  const lb = await startLeaderboard(t, { env: { LEADERBOARD_MAX_POINTS: '50' } });
  t.equal(
    (await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'a', points: 50 } })).statusCode,
    200,
  );
  t.equal(
    (await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'a', points: 51 } })).statusCode,
    400,
  );
});

t.test('GET /v1/scores/{user_id} is 404 for a player with no score in the period', async (t) => {
  const lb = await startLeaderboard(t);
  const res = await lb.call('GET', '/v1/scores/nobody', { scopes: READ });
  t.equal(res.statusCode, 404);
  t.match(res.json(), { status: 404, title: String, detail: /nobody/ });
});

t.test('writes and reads carry the rate-limit headers', async (t) => {
  const lb = await startLeaderboard(t, { env: { LEADERBOARD_READ_LIMIT_PER_MINUTE: '2' } });
  const first = await lb.call('GET', '/v1/scores', { scopes: READ });
  t.equal(first.headers['x-rate-limit-limit'], '2');
  t.equal(first.headers['x-rate-limit-remaining'], '1');
  t.ok(Number(first.headers['x-rate-limit-reset']) > Date.now() / 1000 - 1, 'reset is a timestamp');
  await lb.call('GET', '/v1/scores', { scopes: READ });
  const limited = await lb.call('GET', '/v1/scores', { scopes: READ });
  t.equal(limited.statusCode, 429);
  t.ok(Number(limited.headers['retry-after']) > 0);
  t.equal(limited.json().status, 429);
  const write = await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'a', points: 1 } });
  t.ok(write.headers['x-rate-limit-limit'], 'writes are limited too');
});

t.test('a match_id reused for another player or other points is a 409 that records nothing', async (t) => {
  const lb = await startLeaderboard(t);
  const first = { user_id: 'alice', points: 3, match_id: 'match-7' };
  t.equal((await lb.call('POST', '/v1/scores', { scopes: WRITE, body: first })).statusCode, 200);
  for (const reuse of [
    { user_id: 'mallory', points: 3, match_id: 'match-7' },
    { user_id: 'alice', points: 5, match_id: 'match-7' },
  ]) {
    const res = await lb.call('POST', '/v1/scores', { scopes: WRITE, body: reuse });
    t.equal(res.statusCode, 409, JSON.stringify(reuse));
    const problem = res.json();
    t.match(problem, { status: 409, code: 'LB_MATCH_ID_CONFLICT', match_id: 'match-7' });
    t.match(problem.detail, /match-7/);
    t.notMatch(res.body, /"score"|"rank"/, "the answer shows nobody's standing");
  }
  t.equal(
    (await lb.call('GET', '/v1/scores/mallory', { scopes: READ })).statusCode,
    404,
    'nothing for mallory',
  );
  t.equal(
    (await lb.call('GET', '/v1/scores/alice', { scopes: READ })).json().user_info.score,
    3,
    'alice unchanged',
  );
});
