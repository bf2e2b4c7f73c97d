import type { AddressInfo } from 'node:net';
import t from 'tap';
import { READ, SECRET, WRITE, startLeaderboard } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';
import { distributedServers } from '../helpers/distributed.ts';

/**
 * The top list and a player's standing answered before fastify (see routes.ts) say exactly what
 * the full routes say, over a real socket (inject would not pass the edge where they are served).
 */
t.test('fast answers are byte for byte the full routes’ answers', async (t) => {
  const lb = await startLeaderboard(t, { rateLimit: false });
  for (const [user, points] of [
    ['alice', 5],
    ['bob', 9],
    ['carol', 5],
    ['dave', 1],
  ] as const) {
    t.equal(
      (await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: user, points } })).statusCode,
      200,
    );
  }
  const profile = await lb.call('PUT', '/v1/users/bob/profile', {
    scopes: ['profiles:write'],
    body: { user_name: 'Bobby.Tables', display_name: 'Bob' },
  });
  t.equal(profile.statusCode, 200);
  await lb.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = lb.app.server.address() as AddressInfo;
  const headers = await authHeaders(SECRET)(READ);
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  };
  const period = lb.instance.service.currentPeriod();

  t.equal(lb.instance.service.cachedTop(10), undefined, 'nothing cached before the first read');
  const first = await get('/v1/scores');
  t.ok(lb.instance.service.cachedTop(10), 'the full route filled the cache');
  const { service } = lb.instance;
  const cachedTop = service.cachedTop.bind(service);
  let fastAnswers = 0;
  service.cachedTop = (limit) => {
    const top = cachedTop(limit);
    if (top !== undefined) fastAnswers++;
    return top;
  };
  const fast = await get('/v1/scores');
  t.equal(fastAnswers, 1, 'the second read was answered from the cache, before fastify');
  // A query always takes the full route.
  const full = await get(`/v1/scores?period=${period}`);
  t.same(fast, full);
  t.same(first, full);
  t.match(JSON.parse(fast.body), {
    data: [{ user_id: 'bob', user_name: 'Bobby.Tables', rank: 1, score: 9 }],
  });

  const currentStanding = service.currentStanding.bind(service);
  let fastStandings = 0;
  service.currentStanding = (userId) => {
    const standing = currentStanding(userId);
    if (standing !== undefined) fastStandings++;
    return standing;
  };
  t.same(await get('/v1/scores/carol'), await get(`/v1/scores/carol?period=${period}`));
  t.equal(
    fastStandings,
    1,
    "a player's standing was answered before fastify (the query took the full route)",
  );
  t.same(JSON.parse((await get('/v1/scores/carol')).body), {
    user_info: { user_id: 'carol', score: 5, rank: 2 },
  });
  const missing = await get('/v1/scores/nobody');
  t.equal(missing.status, 404, 'a player without a score: the full route answers its 404');
  t.equal((await get('/v1/scores/not%20valid')).status, 400, 'an invalid id: the full route answers 400');

  await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'dave', points: 20 } });
  t.match(
    JSON.parse((await get('/v1/scores')).body),
    { data: [{ user_id: 'dave', score: 21, rank: 1 }] },
    'a win that changes the top is seen at once',
  );
  t.same(JSON.parse((await get('/v1/scores/dave')).body), {
    user_info: { user_id: 'dave', score: 21, rank: 1 },
  });
});

t.test('a plain score update is answered before fastify, as the full route answers it', async (t) => {
  const lb = await startLeaderboard(t, { rateLimit: false });
  await lb.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = lb.app.server.address() as AddressInfo;
  const headers = { ...(await authHeaders(SECRET)(WRITE)), 'content-type': 'application/json' };
  // A query is never the fast write's: `?full` takes fastify's route with the same body.
  const post = async (body: unknown, path = '/v1/scores') => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      replayed: res.headers.get('idempotent-replayed'),
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
    };
  };
  const { service } = lb.instance;
  const recordWin = service.recordWin.bind(service);
  const seen: string[] = [];
  service.recordWin = (input, trace) => {
    seen.push(input.matchId ?? input.userId);
    return recordWin(input, trace);
  };
  await post({ user_id: 'warm', points: 1 }, '/v1/scores?full'); // the token's first use verifies it
  seen.length = 0;
  const fast = await post({ user_id: 'ada', points: 5, match_id: 'm1' });
  const full = await post({ user_id: 'bob', points: 5, match_id: 'm2' }, '/v1/scores?full');
  t.same(fast, { ...full, body: full.body.replace('bob', 'ada').replace('"rank":2', '"rank":1') });
  t.same(JSON.parse(fast.body), { user_info: { user_id: 'ada', score: 5, rank: 1 } });

  t.same(
    await post({ user_id: 'ada', points: 5, match_id: 'm1' }),
    await post({ user_id: 'ada', points: 5, match_id: 'm1' }, '/v1/scores?full'),
    'a retry: the same answer',
  );
  t.equal((await post({ user_id: 'ada', points: 5, match_id: 'm1' })).replayed, 'true');
  const conflict = await post({ user_id: 'bob', points: 5, match_id: 'm1' });
  t.same(
    conflict,
    await post({ user_id: 'bob', points: 5, match_id: 'm1' }, '/v1/scores?full'),
    'a reused match id',
  );
  t.equal(conflict.status, 409);
  t.match(JSON.parse(conflict.body), { code: 'LB_MATCH_ID_CONFLICT', match_id: 'm1' });
  for (const bad of [
    '{"user_id":"ada","points":"5"}',
    '{"user_id":"ada"}',
    '{"user_id":',
    '{"user_id":"ada","points":1,"x":1}',
  ]) {
    t.same(await post(bad), await post(bad, '/v1/scores?full'), `declined to the full route: ${bad}`);
  }
  t.same(seen, ['m1', 'm2', 'm1', 'm1', 'm1', 'm1', 'm1'], 'each valid update recorded once per request');
  t.equal(
    (await lb.call('GET', '/v1/scores/ada', { scopes: READ })).json().user_info.score,
    5,
    'retries added nothing',
  );
});

/**
 * On shared stores (JetStream, Redis, Cassandra) a standing is asked of Redis: the fast answer's
 * promise. Its answers, a 404 and a closed ranking's 503 included, are the full route's, and the
 * store is asked once a request (the full route is not run after the fast answer).
 */
t.test('a standing from a shared store: answered later at the edge, once, as the full route', async (t) => {
  const servers = await distributedServers(t, 'lb-fast-later');
  const lb = await startLeaderboard(t, { rateLimit: false, env: servers.env });
  for (const [user, points] of [
    ['alice', 5],
    ['bob', 9],
  ] as const) {
    await lb.call('POST', '/v1/scores', {
      scopes: WRITE,
      body: { user_id: user, points, match_id: `m-${user}` },
    });
  }
  await lb.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = lb.app.server.address() as AddressInfo;
  const headers = await authHeaders(SECRET)(READ);
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
    };
  };
  const { service } = lb.instance;
  const period = service.currentPeriod();
  const standing = service.standing.bind(service);
  let asked = 0;
  service.standing = (...args) => {
    asked++;
    return standing(...args);
  };
  await get('/v1/scores/alice'); // the token's first use: the full route
  for (const user of ['alice', 'nobody']) {
    asked = 0;
    const fast = await get(`/v1/scores/${user}`);
    t.equal(asked, 1, `${user}: the store asked once`);
    t.same(fast, await get(`/v1/scores/${user}?period=${period}`), `${user}: as the full route`);
  }
  t.same(JSON.parse((await get('/v1/scores/alice')).body), {
    user_info: { user_id: 'alice', score: 5, rank: 2 },
  });
  t.equal((await get('/v1/scores/nobody')).status, 404);
  lb.instance.rankingGate.close(period);
  const closed = await get('/v1/scores/alice');
  t.equal(closed.status, 503, closed.body);
  t.same(closed, await get(`/v1/scores/alice?period=${period}`), 'a closed ranking: the full route’s 503');
  lb.instance.rankingGate.open(period);
});
