import t from 'tap';
import { startApi } from '../helpers/http.ts';

const send = (to: string, extra: Record<string, unknown> = {}) => ({
  to: [{ name: '', email: to }],
  subject: 'Hello there',
  body: 'Shall we meet on Friday?',
  ...extra,
});

t.test('authentication: 401 without a token, 403 without the mail scope', async (t) => {
  const api = await startApi(t);
  t.equal((await api.call('GET', '/v1/folders')).statusCode, 401);
  const forbidden = await api.call('GET', '/v1/folders', { user: 'alice', scopes: ['trade'] });
  t.equal(forbidden.statusCode, 403);
  t.match(forbidden.json(), { code: 'KIT_FORBIDDEN', required_scope: 'mail' });
});

t.test('GET /v1/folders is a plain array; the mailbox is made on the first call', async (t) => {
  const api = await startApi(t);
  const res = await api.call('GET', '/v1/folders', { user: 'alice' });
  t.equal(res.statusCode, 200);
  const folders = res.json<{ id: string; name: string; user_id: string }[]>();
  t.ok(Array.isArray(folders));
  t.same(folders[0], { id: 'inbox', name: 'Inbox', user_id: 'alice' });
  t.same(
    folders.map((f) => f.name),
    ['Inbox', 'All', 'Archive', 'Drafts', 'Flagged', 'Junk', 'Sent', 'Trash'],
  );
});

t.test('custom folders: create, rename, delete; special folders refuse', async (t) => {
  const api = await startApi(t);
  const created = await api.call('POST', '/v1/folders', { user: 'alice', body: { name: 'Work' } });
  t.equal(created.statusCode, 201);
  const id = created.json<{ id: string }>().id;
  t.equal(
    (await api.call('POST', '/v1/folders', { user: 'alice', body: { name: 'work' } })).json<{
      code: string;
    }>().code,
    'MAIL_FOLDER_EXISTS',
  );
  t.match(
    (await api.call('PATCH', `/v1/folders/${id}`, { user: 'alice', body: { name: 'Projects' } })).json(),
    {
      id,
      name: 'Projects',
      user_id: 'alice',
    },
  );
  t.equal(
    (await api.call('PATCH', '/v1/folders/inbox', { user: 'alice', body: { name: 'x' } })).statusCode,
    409,
  );
  t.equal((await api.call('DELETE', `/v1/folders/${id}`, { user: 'alice' })).statusCode, 204);
  t.equal((await api.call('DELETE', `/v1/folders/${id}`, { user: 'alice' })).statusCode, 404);
});

t.test('send, receive, read, mark, search, thread, poll, download, delete over REST', async (t) => {
  const api = await startApi(t);
  await api.call('GET', '/v1/folders', { user: 'bob' });
  const content = Buffer.from('agenda: everything').toString('base64');
  const sent = await api.call('POST', '/v1/messages', {
    user: 'alice',
    body: send('bob@tessera.local', {
      attachments: [{ filename: 'agenda.txt', content_type: 'text/plain', content }],
    }),
  });
  t.equal(sent.statusCode, 201);
  const sentBody = sent.json<{ email_id: string; folder_id: string; message_id: string }>();
  t.match(sentBody.email_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  t.equal(sentBody.folder_id, 'sent');
  t.notMatch(sent.body, /blob_key/, 'storage keys never leave the service');
  await api.mail.settle();

  const inbox = await api.call('GET', '/v1/folders/inbox/messages?limit=10', { user: 'bob' });
  t.equal(inbox.statusCode, 200);
  const page = inbox.json<{ data: { email_id: string; thread_id: string }[]; next_cursor?: string }>();
  t.equal(page.data.length, 1);
  t.equal(page.next_cursor, undefined);
  const id = page.data[0]?.email_id ?? '';
  t.match(page.data[0], {
    subject: 'Hello there',
    is_read: false,
    has_attachments: true,
    snippet: 'Shall we meet on Friday?',
  });

  const message = await api.call('GET', `/v1/messages/${id}`, { user: 'bob' });
  t.match(message.json(), {
    email_id: id,
    user_id: 'bob',
    from: { email: 'alice@tessera.local' },
    to: [{ email: 'bob@tessera.local' }],
    body: 'Shall we meet on Friday?',
    is_read: false,
    folder_id: 'inbox',
    message_id: sentBody.message_id,
    attachments: [{ filename: 'agenda.txt', content_type: 'text/plain', size: 18 }],
    auth: { spf: 'pass' },
  });
  t.match(message.json<{ received_at: string }>().received_at, /^\d{4}-\d\d-\d\dT/);

  const download = await api.call('GET', `/v1/messages/${id}/attachments/agenda.txt`, { user: 'bob' });
  t.equal(download.statusCode, 200);
  t.equal(download.body, 'agenda: everything');
  t.match(download.headers['content-type'], /^text\/plain/);
  t.equal(
    (await api.call('GET', `/v1/messages/${id}/attachments/other.txt`, { user: 'bob' })).json<{
      code: string;
    }>().code,
    'MAIL_ATTACHMENT_NOT_FOUND',
  );

  t.match((await api.call('PATCH', `/v1/messages/${id}`, { user: 'bob', body: { is_read: true } })).json(), {
    is_read: true,
  });
  t.same((await api.call('GET', '/v1/folders/inbox/messages?is_read=false', { user: 'bob' })).json(), {
    data: [],
  });

  await api.mail.settle();
  const found = await api.call(
    'GET',
    `/v1/search?q=${encodeURIComponent('friday from:alice has:attachment')}`,
    { user: 'bob' },
  );
  t.same(
    found.json<{ data: { email_id: string }[] }>().data.map((m) => m.email_id),
    [id],
  );
  t.equal(
    (await api.call('GET', '/v1/search?q=before:soon', { user: 'bob' })).json<{ code: string }>().code,
    'MAIL_BAD_QUERY',
  );

  const thread = await api.call('GET', `/v1/threads/${page.data[0]?.thread_id ?? ''}`, { user: 'bob' });
  t.equal(thread.json<{ data: unknown[] }>().data.length, 1);

  const events = await api.call('GET', '/v1/events/poll?since=0&wait_ms=0', { user: 'bob' });
  t.match(events.json(), {
    data: [{ type: 'message.new', email_id: id, folder_id: 'inbox' }, { type: 'message.updated' }],
  });
  const since = events.json<{ next_since: number }>().next_since;
  t.same((await api.call('GET', `/v1/events/poll?since=${since}&wait_ms=0`, { user: 'bob' })).json(), {
    data: [],
    next_since: since,
  });

  t.same((await api.call('DELETE', `/v1/messages/${id}`, { user: 'bob' })).json(), {
    email_id: id,
    deleted: false,
  });
  t.match((await api.call('GET', `/v1/messages/${id}`, { user: 'bob' })).json(), { folder_id: 'trash' });
  t.same((await api.call('DELETE', `/v1/messages/${id}`, { user: 'bob' })).json(), {
    email_id: id,
    deleted: true,
  });
  const gone = await api.call('GET', `/v1/messages/${id}`, { user: 'bob' });
  t.equal(gone.statusCode, 404);
  t.match(gone.headers['content-type'], /application\/problem\+json/);
  t.match(gone.json(), { code: 'MAIL_MESSAGE_NOT_FOUND', status: 404 });
});

t.test('cursor pagination over a folder', async (t) => {
  const api = await startApi(t);
  for (let i = 0; i < 5; i++)
    await api.call('POST', '/v1/messages', {
      user: 'alice',
      body: send('x@remote.test', { subject: `m${i}` }),
    });
  const subjects: string[] = [];
  let url = '/v1/folders/sent/messages?limit=2';
  for (let pages = 0; pages < 10; pages++) {
    const page = (await api.call('GET', url, { user: 'alice' })).json<{
      data: { subject: string }[];
      next_cursor?: string;
    }>();
    subjects.push(...page.data.map((m) => m.subject));
    if (page.next_cursor === undefined) break;
    url = `/v1/folders/sent/messages?limit=2&cursor=${page.next_cursor}`;
  }
  t.same(subjects, ['m4', 'm3', 'm2', 'm1', 'm0']);
  t.equal((await api.call('GET', '/v1/folders/sent/messages?limit=101', { user: 'alice' })).statusCode, 400);
  t.equal(
    (await api.call('GET', '/v1/folders/sent/messages?cursor=zzz', { user: 'alice' })).json<{
      code: string;
    }>().code,
    'MAIL_BAD_CURSOR',
  );
  t.equal((await api.call('GET', '/v1/folders/nope/messages', { user: 'alice' })).statusCode, 404);
});

t.test('validation answers 400 naming the field, before anything is sent', async (t) => {
  const api = await startApi(t);
  const noSubject = await api.call('POST', '/v1/messages', {
    user: 'alice',
    body: { to: [{ email: 'b@x.io' }], body: 'b' },
  });
  t.equal(noSubject.statusCode, 400);
  t.equal(noSubject.json<{ code: string }>().code, 'KIT_VALIDATION');
  const noRecipient = await api.call('POST', '/v1/messages', {
    user: 'alice',
    body: { subject: 's', body: 'b' },
  });
  t.match(noRecipient.json(), { status: 400, code: 'MAIL_NO_RECIPIENT', field: 'to' });
  const badAddress = await api.call('POST', '/v1/messages', { user: 'alice', body: send('nope') });
  t.match(badAddress.json(), { status: 400, code: 'MAIL_INVALID_ADDRESS', field: 'to[0].email' });
  t.same((await api.call('GET', '/v1/folders/sent/messages', { user: 'alice' })).json(), { data: [] });
});

t.test('sending is throttled per user with the rate-limit headers', async (t) => {
  const api = await startApi(t, { env: { MAIL_SEND_LIMIT_PER_MINUTE: '2' }, rateLimit: true });
  const first = await api.call('POST', '/v1/messages', { user: 'alice', body: send('x@remote.test') });
  t.equal(first.headers['x-rate-limit-limit'], '2');
  t.equal(first.headers['x-rate-limit-remaining'], '1');
  await api.call('POST', '/v1/messages', { user: 'alice', body: send('x@remote.test') });
  const third = await api.call('POST', '/v1/messages', { user: 'alice', body: send('x@remote.test') });
  t.equal(third.statusCode, 429);
  t.ok(third.headers['retry-after']);
  t.equal(
    (await api.call('POST', '/v1/messages', { user: 'bob', body: send('x@remote.test') })).statusCode,
    201,
    'another user has their own budget',
  );
});

t.test('every route is in the OpenAPI document, with its problem answers', async (t) => {
  const api = await startApi(t);
  const res = await api.call('GET', '/docs/openapi.json');
  t.equal(res.statusCode, 200);
  const doc = res.json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
  t.same(Object.keys(doc.paths).sort(), [
    '/v1/events/poll',
    '/v1/folders',
    '/v1/folders/{folder_id}',
    '/v1/folders/{folder_id}/messages',
    '/v1/messages',
    '/v1/messages/{message_id}',
    '/v1/messages/{message_id}/attachments/{filename}',
    '/v1/search',
    '/v1/threads/{thread_id}',
  ]);
  t.ok(doc.paths['/v1/messages/{message_id}']?.get?.responses['404'], 'the 404 is documented');
  t.ok(doc.paths['/v1/folders']?.get?.responses['401'], 'so are the kit answers');
});
