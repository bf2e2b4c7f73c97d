import type { AddressInfo } from 'node:net';
import t from 'tap';
import { SECRET, WRITE, startLeaderboard } from '../helpers/app.ts';
import { authHeaders } from '../helpers/auth-headers.ts';

/**
 * While a period's ranking is being rebuilt (its gate closed), a score update is the coded 503
 * and its win is not appended: over the fast write (a real socket, a known token) and the full
 * route (inject) alike, with or without a match id.
 */
t.test('an update refused while the ranking is rebuilt leaves nothing in the win log', async (t) => {
  const lb = await startLeaderboard(t, { rateLimit: false });
  await lb.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = lb.app.server.address() as AddressInfo;
  const headers = { ...(await authHeaders(SECRET)(WRITE)), 'content-type': 'application/json' };
  const post = async (body: object) => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/scores`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
  };
  const period = lb.instance.service.currentPeriod();
  const { winLog } = lb.instance.ports;
  // The token's first use (the full route): afterwards the fast write may take its updates.
  t.equal((await post({ user_id: 'alice', points: 2 })).status, 200);
  t.equal(await winLog.lastSeq(period), 1);

  lb.instance.rankingGate.close(period);
  const refused = [
    await post({ user_id: 'alice', points: 3 }),
    await post({ user_id: 'bob', points: 1, match_id: 'm-1' }),
  ];
  for (const answer of refused) {
    t.equal(answer.status, 503, answer.body);
    t.equal(answer.retryAfter, '1');
    t.match(JSON.parse(answer.body), { code: 'LB_STORE_UNAVAILABLE' });
  }
  const full = await lb.call('POST', '/v1/scores', { scopes: WRITE, body: { user_id: 'carol', points: 4 } });
  t.equal(full.statusCode, 503, 'the full route refuses it too');
  t.equal(await winLog.lastSeq(period), 1, 'no win of a refused update is in the log');

  lb.instance.rankingGate.open(period);
  const retried = await post({ user_id: 'bob', points: 1, match_id: 'm-1' });
  t.equal(retried.status, 200, 'the retry, once open, is recorded');
  t.equal(retried.body, '{"user_info":{"user_id":"bob","score":1,"rank":2}}');
  t.equal(await winLog.lastSeq(period), 2, 'and appended once');
});
