// Mailboxes are apart: no route reads, changes or downloads another user's mail.
import t from 'tap';
import { startApi } from '../helpers/http.ts';

t.test("no route reaches another user's mail", async (t) => {
  const api = await startApi(t);
  const content = Buffer.from('private').toString('base64');
  const sent = (
    await api.call('POST', '/v1/messages', {
      user: 'alice',
      body: {
        to: [{ name: '', email: 'x@remote.test' }],
        subject: 'secret plans',
        body: 'Shall we meet on Friday?',
        attachments: [{ filename: 'p.txt', content }],
      },
    })
  ).json<{ email_id: string; thread_id: string }>();
  const folder = (await api.call('POST', '/v1/folders', { user: 'alice', body: { name: 'Private' } })).json<{
    id: string;
  }>();
  await api.mail.settle();
  const eve = { user: 'eve' };
  const attempts: [string, number][] = [
    [
      `GET /v1/messages/${sent.email_id}`,
      (await api.call('GET', `/v1/messages/${sent.email_id}`, eve)).statusCode,
    ],
    [
      'GET attachment',
      (await api.call('GET', `/v1/messages/${sent.email_id}/attachments/p.txt`, eve)).statusCode,
    ],
    [
      'PATCH message',
      (await api.call('PATCH', `/v1/messages/${sent.email_id}`, { ...eve, body: { is_read: false } }))
        .statusCode,
    ],
    ['DELETE message', (await api.call('DELETE', `/v1/messages/${sent.email_id}`, eve)).statusCode],
    ['GET thread', (await api.call('GET', `/v1/threads/${sent.thread_id}`, eve)).statusCode],
    ['GET folder messages', (await api.call('GET', `/v1/folders/${folder.id}/messages`, eve)).statusCode],
    [
      'PATCH folder',
      (await api.call('PATCH', `/v1/folders/${folder.id}`, { ...eve, body: { name: 'mine' } })).statusCode,
    ],
    ['DELETE folder', (await api.call('DELETE', `/v1/folders/${folder.id}`, eve)).statusCode],
  ];
  t.same(
    attempts.filter(([, status]) => status !== 404),
    [],
    'every attempt is a 404',
  );
  t.same((await api.call('GET', '/v1/search?q=secret', eve)).json(), { data: [] });
  t.same((await api.call('GET', '/v1/folders/sent/messages', eve)).json(), { data: [] });
  t.same((await api.call('GET', '/v1/events/poll?wait_ms=0', eve)).json(), { data: [], next_since: 0 });
  t.same(
    (await api.call('GET', '/v1/folders', eve))
      .json<{ user_id: string }[]>()
      .filter((f) => f.user_id !== 'eve'),
    [],
  );
  const mine = await api.call('GET', `/v1/messages/${sent.email_id}`, { user: 'alice' });
  t.match(mine.json(), { subject: 'secret plans', is_read: true }, "alice's message is untouched");
});
